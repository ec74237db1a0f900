#include "gui/DoctorPanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>
#include <utility>

#include "gui/Theme.h"
#include "tools/Profiles.h"

namespace spindle::gui {

namespace {

constexpr int kPollMs = 50;
constexpr tools::Profile kProfiles[] = {tools::Profile::LowLatency, tools::Profile::Throughput,
                                        tools::Profile::PowerSave};

const QColor& statusColour(tools::Status status) {
  switch (status) {
    case tools::Status::Pass: return theme::kGood;
    case tools::Status::Warn: return theme::kWarn;
    case tools::Status::Fail: break;
  }
  return theme::kBad;
}

QTreeWidgetItem* checkItem(const tools::Check& check) {
  auto* item = new QTreeWidgetItem({QString::fromLatin1(tools::statusName(check.status)),
                                    QString::fromStdString(check.title), QString::fromStdString(check.detail)});
  item->setForeground(0, statusColour(check.status));
  item->setData(0, Qt::UserRole, QString::fromStdString(check.id));
  item->setToolTip(2, QString::fromStdString(check.detail));
  if (!check.fix.empty()) {
    auto* fix = new QTreeWidgetItem(item, {QString(), QObject::tr("Fix"), QString::fromStdString(check.fix)});
    fix->setToolTip(2, QString::fromStdString(check.fix));
    fix->setForeground(2, theme::kDim);
  }
  return item;
}

void section(QString& text, const char* title, const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  text += QString::fromLatin1(title) + QLatin1Char('\n');
  for (const std::string& line : lines) text += QStringLiteral("  ") + QString::fromStdString(line) + QLatin1Char('\n');
}

}  // namespace

DoctorPanel::DoctorPanel(tools::SystemRoot system, QWidget* parent)
    : QWidget(parent), system_(std::move(system)), poll_(new QTimer(this)) {
  profile_ = new QComboBox(this);
  for (tools::Profile p : kProfiles) profile_->addItem(QString::fromLatin1(tools::profileName(p)));
  auto* rerun = new QPushButton(tr("Check again"), this);
  summary_ = new QLabel(this);
  checks_ = new QTreeWidget(this);
  checks_->setHeaderLabels({tr("Status"), tr("Check"), tr("Found / fix")});
  checks_->header()->setSectionResizeMode(2, QHeaderView::Stretch);
  checks_->setColumnWidth(0, 56);
  checks_->setColumnWidth(1, 220);
  checks_->setWordWrap(true);
  changes_ = new QPlainTextEdit(this);
  changes_->setReadOnly(true);
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Profile"), this));
  top->addWidget(profile_);
  top->addWidget(rerun);
  top->addWidget(summary_, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(checks_);
  split->addWidget(changes_);
  split->setSizes({360, 160});
  auto* column = new QVBoxLayout(this);
  column->addLayout(top);
  column->addWidget(split, 1);
  connect(profile_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  connect(rerun, &QPushButton::clicked, this, &DoctorPanel::refresh);
  connect(poll_, &QTimer::timeout, this, &DoctorPanel::collect);
  refresh();
}

void DoctorPanel::setProfile(tools::Profile profile) {
  for (int i = 0; i < static_cast<int>(std::size(kProfiles)); ++i)
    if (kProfiles[i] == profile) profile_->setCurrentIndex(i);
}

void DoctorPanel::refresh() {
  const tools::Profile profile = kProfiles[std::max(0, profile_->currentIndex())];
  if (!job_.start([system = system_, profile] { return tools::runDoctor(system, profile); })) {
    QTimer::singleShot(kPollMs, this, &DoctorPanel::refresh);  // the running check finishes first
    return;
  }
  summary_->setText(tr("checking…"));
  poll_->start(kPollMs);
}

void DoctorPanel::collect() {
  std::optional<tools::DoctorReport> report = job_.take();
  if (!report) return;
  poll_->stop();
  report_ = std::move(*report);
  showReport();
  showChanges();
}

void DoctorPanel::showReport() {
  checks_->clear();
  for (const tools::Check& check : report_.checks) checks_->addTopLevelItem(checkItem(check));
  checks_->expandAll();
  summary_->setText(tr("%1 · %2 pass, %3 warn, %4 fail")
                        .arg(QString::fromStdString(report_.kernel))
                        .arg(report_.count(tools::Status::Pass))
                        .arg(report_.count(tools::Status::Warn))
                        .arg(report_.count(tools::Status::Fail)));
}

void DoctorPanel::showChanges() {
  const tools::ProfileChanges c = tools::profileChanges(report_.profile, tools::countCpus(system_));
  QString text = tr("Changes the %1 profile asks for (spindle-doctor --apply does the runtime ones):\n")
                     .arg(QString::fromLatin1(tools::profileName(report_.profile)));
  section(text, "Kernel command line (add at boot):", c.kernelCommandLine);
  section(text, "/etc/sysctl.d/90-spindle.conf:", c.sysctl);
  section(text, "/etc/security/limits.d/audio.conf:", c.limits);
  section(text, "Runtime:", c.runtime);
  section(text, "Notes:", c.notes);
  changes_->setPlainText(text);
}

}  // namespace spindle::gui
