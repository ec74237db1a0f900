#include "gui/HostsPanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace spindle::gui {

namespace {

constexpr int kRefreshMs = 500;

QTableWidget* table(const QStringList& headers, const QString& name, QWidget* parent) {
  auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
  t->setObjectName(name);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->hide();
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionMode(QAbstractItemView::NoSelection);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->horizontalHeader()->setStretchLastSection(true);
  return t;
}

void setCell(QTableWidget* t, int row, int column, const QString& text) {
  auto* item = t->item(row, column);
  if (!item) t->setItem(row, column, item = new QTableWidgetItem);
  if (item->text() != text) item->setText(text);
}

// The part's controls as "Label 0.50", or its error when it has one.
QString partNote(const control::HostPartView& part) {
  if (!part.error.empty()) return QString::fromStdString(part.error);
  QStringList out;
  for (const auto& [label, value] : part.controls)
    out << QStringLiteral("%1 %2").arg(QString::fromStdString(label)).arg(static_cast<double>(value), 0, 'f', 2);
  for (const auto& [cc, value] : part.asked.controls)
    if (part.controls.empty()) out << QStringLiteral("CC%1 = %2").arg(cc).arg(value);
  return out.join(QStringLiteral(", "));
}

}  // namespace

QString hostFigure(double value, const char* unit, int decimals) {
  if (value < 0.0) return QStringLiteral("–");
  return QStringLiteral("%1 %2").arg(value, 0, 'f', decimals).arg(QLatin1String(unit)).trimmed();
}

HostsPanel::HostsPanel(control::HostControl& hosts, HostRoutes routes, QWidget* parent)
    : QWidget(parent), hosts_(hosts), routes_(std::move(routes)) {
  auto* column = new QVBoxLayout(this);
  hostTable_ = table({tr("Host"), tr("State"), tr("Voices"), tr("Underr."), tr("Xruns"), tr("Memory"),
                      tr("Note-on"), tr("Audio round trip"), tr("OSC round trip"), tr("Routes")},
                     QStringLiteral("hosts"), this);
  partTable_ = table({tr("Host"), tr("Part"), tr("Library (on the host)"), tr("Instrument"), tr("Level"),
                      tr("Controls / error")},
                     QStringLiteral("host-parts"), this);
  auto* partsCaption = new QLabel(tr("Parts"), this);
  partsCaption->setObjectName(QStringLiteral("Caption"));
  column->addWidget(hostTable_, 2);
  column->addWidget(partsCaption);
  column->addWidget(partTable_, 3);
  column->addWidget(buildCommands());
  auto* timer = new QTimer(this);
  connect(timer, &QTimer::timeout, this, &HostsPanel::refresh);
  timer->start(kRefreshMs);
  refresh();
}

// Host, part, a level and Set level; below, a path on that host and Load.
QWidget* HostsPanel::buildCommands() {
  auto* box = new QWidget(this);
  auto* grid = new QGridLayout(box);
  grid->setContentsMargins(0, 0, 0, 0);
  host_ = new QComboBox(box);
  host_->setObjectName(QStringLiteral("host-name"));
  part_ = new QSpinBox(box);
  part_->setObjectName(QStringLiteral("host-part"));
  part_->setRange(1, 16);
  part_->setPrefix(tr("part "));
  level_ = new QDoubleSpinBox(box);
  level_->setObjectName(QStringLiteral("host-level"));
  level_->setRange(-144.0, 12.0);
  level_->setDecimals(1);
  level_->setSuffix(tr(" dB"));
  auto* levelButton = new QPushButton(tr("Set level"), box);
  path_ = new QLineEdit(box);
  path_->setObjectName(QStringLiteral("host-path"));
  path_->setPlaceholderText(tr("library path on that host"));
  auto* loadButton = new QPushButton(tr("Load"), box);
  grid->addWidget(host_, 0, 0);
  grid->addWidget(part_, 0, 1);
  grid->addWidget(level_, 0, 2);
  grid->addWidget(levelButton, 0, 3);
  grid->addWidget(path_, 1, 0, 1, 3);
  grid->addWidget(loadButton, 1, 3);
  connect(loadButton, &QPushButton::clicked, this, &HostsPanel::load);
  connect(path_, &QLineEdit::returnPressed, this, &HostsPanel::load);
  connect(levelButton, &QPushButton::clicked, this, &HostsPanel::setLevel);
  return box;
}

void HostsPanel::refresh() {
  const std::vector<control::HostView> hosts = hosts_.hosts();
  const std::vector<control::HostRouteInfo> routes = routes_ ? routes_() : std::vector<control::HostRouteInfo>{};
  hostTable_->setRowCount(static_cast<int>(hosts.size()));
  for (std::size_t k = 0; k < hosts.size(); ++k) {
    fillHost(static_cast<int>(k), hosts[k], routes);
    const QString name = QString::fromStdString(hosts[k].name);
    if (host_->findText(name) < 0) host_->addItem(name);
  }
  fillParts(hosts);
}

// Health as the host's last status has it; a host not heard from shows its state only.
// "spindle_host1: MIDI + audio", "client absent"; "not routed" without a JACK client
// (--host NAME=ADDR@CLIENT); "–" when the routes are not known.
QString HostsPanel::routeText(const control::HostView& host, const std::vector<control::HostRouteInfo>& routes) const {
  if (host.jackClient.empty()) return tr("not routed");
  for (const control::HostRouteInfo& route : routes)
    if (route.name == host.name) return QString::fromStdString(route.text);
  return routes_ ? tr("waiting for the sound server") : QStringLiteral("–");
}

void HostsPanel::fillHost(int row, const control::HostView& host, const std::vector<control::HostRouteInfo>& routes) {
  const bool heard = !host.status.empty();
  const auto figure = [&](const char* key, const char* unit, int decimals, double scale = 1.0) {
    const double v = host.value(key);
    return heard ? hostFigure(v < 0.0 ? v : v * scale, unit, decimals) : QStringLiteral("–");
  };
  const double underruns = host.value("underruns");
  setCell(hostTable_, row, 0, QString::fromStdString(host.name));
  setCell(hostTable_, row, 1, QString::fromStdString(host.state));
  setCell(hostTable_, row, 2, figure("voices", "", 0));
  setCell(hostTable_, row, 3, figure("underruns", "", 0));
  setCell(hostTable_, row, 4, figure("xruns", "", 0));
  const bool small = host.value("memory_bytes") < (1 << 20);  // a small library reads better in KiB
  setCell(hostTable_, row, 5, small ? figure("memory_bytes", "KiB", 0, 1.0 / 1024) : figure("memory_bytes", "MiB", 1, 1.0 / (1 << 20)));
  setCell(hostTable_, row, 6, figure("latency_last_ms", "ms", 1));
  // Audio: master -> host -> master through NetJACK2, as the host reports it (frames, at
  // the master's rate); OSC: the control round trip the master measures.
  setCell(hostTable_, row, 7, heard ? hostFigure(host.audioRoundTripMs, "ms", 1) : QStringLiteral("–"));
  hostTable_->item(row, 7)->setToolTip(host.audioRoundTripFrames < 0.0 ? tr("not reported: the host is not a NetJACK2 slave")
                                                                       : tr("%1 frames").arg(host.audioRoundTripFrames, 0, 'f', 0));
  setCell(hostTable_, row, 8, heard ? hostFigure(host.roundTripMs, "ms", 2) : QStringLiteral("–"));
  setCell(hostTable_, row, 9, routeText(host, routes));
  const bool lost = host.state == "lost";
  for (int c = 0; c < hostTable_->columnCount(); ++c)
    hostTable_->item(row, c)->setForeground(lost || underruns > 0.0 ? QColor(0xd0, 0x50, 0x40) : palette().text().color());
  hostTable_->item(row, 0)->setToolTip(QStringLiteral("%1:%2").arg(QString::fromStdString(host.address)).arg(host.port));
}

void HostsPanel::fillParts(const std::vector<control::HostView>& hosts) {
  int row = 0;
  for (const control::HostView& host : hosts) row += static_cast<int>(host.parts.size());
  partTable_->setRowCount(row);
  row = 0;
  for (const control::HostView& host : hosts) {
    for (const control::HostPartView& part : host.parts) {
      setCell(partTable_, row, 0, QString::fromStdString(host.name));
      setCell(partTable_, row, 1, QString::number(part.part + 1));
      setCell(partTable_, row, 2, QString::fromStdString(part.asked.library));
      setCell(partTable_, row, 3, part.instrument.empty() ? QStringLiteral("–") : QString::fromStdString(part.instrument));
      setCell(partTable_, row, 4, part.asked.volumeDb ? QStringLiteral("%1 dB").arg(static_cast<double>(*part.asked.volumeDb), 0, 'f', 1)
                                                : tr("as the host has it"));
      setCell(partTable_, row, 5, partNote(part));
      ++row;
    }
  }
}

void HostsPanel::load() {
  const std::string path = path_->text().trimmed().toStdString();
  std::string error;
  if (path.empty() || host_->currentText().isEmpty()) return;
  if (!hosts_.load(host_->currentText().toStdString(), part_->value() - 1, path, error)) path_->setToolTip(QString::fromStdString(error));
  refresh();
}

void HostsPanel::setLevel() {
  std::string error;
  if (host_->currentText().isEmpty()) return;
  hosts_.setVolume(host_->currentText().toStdString(), part_->value() - 1, static_cast<float>(level_->value()), error);
  refresh();
}

}  // namespace spindle::gui
