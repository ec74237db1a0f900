#include "gui/LatencyPanel.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <chrono>
#include <thread>

#include "gui/HealthCharts.h"
#include "gui/Theme.h"
#include "tools/LatencyReport.h"

namespace spindle::gui {

namespace {

constexpr int kTickMs = 100;
constexpr int kLatencyAxisHeight = 14;

double secondsNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Worker thread: both tests side by side, as spindle-latency runs them.
LatencyRun measure(int seconds) {
  LatencyRun run;
  tools::JackOptions jackOptions;
  jackOptions.seconds = seconds;
  std::thread jack([&run, &jackOptions] { run.jack = tools::runJackTest(jackOptions); });
  tools::WakeupOptions wakeupOptions;
  wakeupOptions.seconds = seconds;
  run.wakeup = tools::runWakeupTest(wakeupOptions);
  jack.join();
  const double worst = static_cast<double>(std::max(run.wakeup.lateness.maxUs(), run.jack.lateness.maxUs()));
  run.periods = tools::buildPeriodTable(worst, static_cast<double>(run.jack.duration.maxUs()));
  return run;
}

QString bandLabel(uint64_t fromUs) {
  return fromUs >= 1000 ? QStringLiteral("%1m").arg(fromUs / 1000) : QString::number(fromUs);
}

QString safePeriod(const std::optional<int>& frames) {
  return frames ? QObject::tr("%1 frames").arg(*frames) : QObject::tr("none measured safe");
}

}  // namespace

BandHistogram::BandHistogram(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(110);
  setToolTip(tr("Wakeup lateness: wakeups per band, bands [from, 2×from) in microseconds"));
}

void BandHistogram::setHistogram(const tools::Histogram& histogram) {
  counts_.clear();
  labels_.clear();
  for (const tools::HistogramBand& band : histogram.bands()) {
    counts_.push_back(band.count);
    labels_.push_back(bandLabel(band.fromUs));
  }
  update();
}

void BandHistogram::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  QFont font = painter.font();
  font.setPixelSize(10);
  painter.setFont(font);
  painter.fillRect(rect(), theme::kWindow);
  const QRect plot(4, 4, width() - 8, height() - kLatencyAxisHeight - 6);
  painter.fillRect(plot, theme::kPanel);
  painter.setPen(theme::kDim);
  if (counts_.empty()) {
    painter.drawText(plot, Qt::AlignCenter, tr("not run yet"));
    return;
  }
  paintBars(painter, plot, counts_, counts_.size());
  const double barWidth = static_cast<double>(plot.width()) / static_cast<double>(counts_.size());
  for (std::size_t i = 0; i < labels_.size(); ++i) {
    const int x = plot.left() + static_cast<int>(static_cast<double>(i) * barWidth);
    painter.drawText(QRect(x, plot.bottom() + 2, static_cast<int>(barWidth), kLatencyAxisHeight),
                     Qt::AlignHCenter | Qt::AlignTop, labels_[i]);
  }
}

LatencyPanel::LatencyPanel(QWidget* parent) : QWidget(parent), timer_(new QTimer(this)) {
  buildLayout();
  connect(runButton_, &QPushButton::clicked, this, [this] { run(secondsBox_->value()); });
  connect(timer_, &QTimer::timeout, this, &LatencyPanel::tick);
}

void LatencyPanel::buildLayout() {
  secondsBox_ = new QSpinBox(this);
  secondsBox_->setRange(1, 600);
  secondsBox_->setValue(10);
  secondsBox_->setSuffix(tr(" s"));
  runButton_ = new QPushButton(tr("Run"), this);
  progress_ = new QProgressBar(this);
  progress_->setVisible(false);
  wakeupText_ = new QLabel(tr("Wakeup test: not run yet"), this);
  jackText_ = new QLabel(this);
  safeText_ = new QLabel(this);
  for (QLabel* label : {wakeupText_, jackText_, safeText_}) label->setWordWrap(true);
  histogram_ = new BandHistogram(this);
  table_ = new QTableWidget(0, 3, this);
  table_->setHorizontalHeaderLabels({tr("Period"), tr("44.1 kHz"), tr("48 kHz")});
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Measure for"), this));
  top->addWidget(secondsBox_);
  top->addWidget(runButton_);
  top->addWidget(progress_, 1);
  auto* grid = new QGridLayout;
  grid->addWidget(histogram_, 0, 0);
  grid->addWidget(table_, 0, 1);
  grid->setColumnStretch(0, 3);
  grid->setColumnStretch(1, 2);
  auto* column = new QVBoxLayout(this);
  column->addLayout(top);
  for (QLabel* label : {wakeupText_, jackText_, safeText_}) column->addWidget(label);
  column->addLayout(grid, 1);
}

bool LatencyPanel::run(int seconds) {
  seconds = std::max(1, seconds);
  if (!job_.start([seconds] { return measure(seconds); })) return false;
  seconds_ = seconds;
  startedAt_ = secondsNow();
  runButton_->setEnabled(false);
  progress_->setRange(0, seconds * 10);
  progress_->setValue(0);
  progress_->setVisible(true);
  timer_->start(kTickMs);
  return true;
}

void LatencyPanel::tick() {
  const double elapsed = secondsNow() - startedAt_;
  progress_->setValue(std::min(seconds_ * 10, static_cast<int>(elapsed * 10.0)));
  progress_->setFormat(tr("%1 / %2 s").arg(std::min(elapsed, static_cast<double>(seconds_)), 0, 'f', 0).arg(seconds_));
  std::optional<LatencyRun> run = job_.take();
  if (!run) return;
  timer_->stop();
  result_ = std::move(run);
  progress_->setVisible(false);
  runButton_->setEnabled(true);
  showResult();
  emit finished();
}

void LatencyPanel::showResult() {
  const LatencyRun& r = *result_;
  QString wakeup = tr("Wakeup (%1): %2").arg(r.wakeup.realtime ? tr("SCHED_FIFO") : tr("not real-time"),
                                             QString::fromStdString(tools::histogramSummary(r.wakeup.lateness)));
  if (!r.wakeup.note.empty()) wakeup += QStringLiteral(" — ") + QString::fromStdString(r.wakeup.note);
  wakeupText_->setText(wakeup);
  jackText_->setText(r.jack.ran ? tr("JACK callback (%1 Hz, %2 frames): lateness %3; duration %4")
                                      .arg(r.jack.sampleRate)
                                      .arg(r.jack.periodFrames)
                                      .arg(QString::fromStdString(tools::histogramSummary(r.jack.lateness)),
                                           QString::fromStdString(tools::histogramSummary(r.jack.duration)))
                                : tr("JACK callback test: %1").arg(QString::fromStdString(r.jack.note)));
  safeText_->setText(tr("Smallest safe period: %1 at 44.1 kHz, %2 at 48 kHz (worst wakeup %3 us%4)")
                         .arg(safePeriod(r.periods.smallest44k), safePeriod(r.periods.smallest48k))
                         .arg(r.periods.worstWakeupUs, 0, 'f', 0)
                         .arg(r.jack.ran ? tr(", longest callback %1 us").arg(r.periods.maxCallbackUs, 0, 'f', 0)
                                         : tr("; add the engine's own time")));
  histogram_->setHistogram(r.wakeup.lateness);
  fillTable(r.periods);
}

void LatencyPanel::fillTable(const tools::PeriodTable& periods) {
  table_->setRowCount(static_cast<int>(periods.rows.size()));
  const auto cell = [](double ms, bool ok) {
    auto* item = new QTableWidgetItem(QStringLiteral("%1 ms %2").arg(ms, 0, 'f', 2).arg(ok ? QStringLiteral("✓") : QStringLiteral("✗")));
    item->setForeground(ok ? theme::kGood : theme::kBad);
    return item;
  };
  for (int row = 0; row < table_->rowCount(); ++row) {
    const tools::PeriodRow& p = periods.rows[static_cast<std::size_t>(row)];
    table_->setItem(row, 0, new QTableWidgetItem(QString::number(p.frames)));
    table_->setItem(row, 1, cell(p.ms44k, p.ok44k));
    table_->setItem(row, 2, cell(p.ms48k, p.ok48k));
  }
}

}  // namespace spindle::gui
