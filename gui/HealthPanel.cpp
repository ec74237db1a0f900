#include "gui/HealthPanel.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

#include "gui/HealthCharts.h"
#include "gui/Theme.h"

namespace spindle::gui {

namespace {

using theme::label;

QString megabytes(uint64_t bytes) { return QStringLiteral("%1 MB").arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1); }

QString percent(double value) { return QStringLiteral("%1 %").arg(value, 0, 'f', 0); }

// Only when it changes: a new style sheet re-polishes the label.
void colour(QLabel* l, const QColor& c) {
  const QString css = QStringLiteral("color: %1;").arg(c.name());
  if (l->styleSheet() != css) l->setStyleSheet(css);
}

}  // namespace

HealthPanel::HealthPanel(const HealthModel& model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(4);
  column->addWidget(buildXruns());
  column->addWidget(buildLoadAndDisk());
  column->addWidget(buildLatency());
  column->addWidget(buildSystem());
  column->addStretch(1);
  setMinimumWidth(380);
  refresh();
}

QLabel* HealthPanel::value(QGridLayout* grid, int row, int column, const QString& caption) {
  grid->addWidget(label(caption, "Caption", this), row, column);
  QLabel* v = label(QStringLiteral("–"), "Value", this);
  v->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  grid->addWidget(v, row, column + 1);
  return v;
}

QGroupBox* HealthPanel::buildXruns() {
  auto* box = new QGroupBox(tr("Xruns"), this);
  auto* grid = new QGridLayout(box);
  grid->setVerticalSpacing(0);
  static const char* const captions[kXrunSeries] = {"backend xruns", "overrun cycles", "stream underruns"};
  static const QColor* const colours[kXrunSeries] = {&theme::kBad, &theme::kOverrun, &theme::kUnderrun};
  for (int s = 0; s < kXrunSeries; ++s) {
    QLabel* number = label(QStringLiteral("0"), "Big", box);
    number->setAlignment(Qt::AlignCenter);
    QLabel* caption = label(tr(captions[s]), "Caption", box);
    caption->setAlignment(Qt::AlignCenter);
    colour(caption, *colours[s]);
    grid->addWidget(number, 0, s);
    grid->addWidget(caption, 1, s);
    counters_[static_cast<std::size_t>(s)] = number;
  }
  timeline_ = new XrunTimeline(model_, box);
  grid->addWidget(timeline_, 2, 0, 1, kXrunSeries);
  gaps_ = label({}, "Caption", box);
  gaps_->setWordWrap(true);
  grid->addWidget(gaps_, 3, 0, 1, kXrunSeries);
  return box;
}

QGroupBox* HealthPanel::buildLoadAndDisk() {
  auto* box = new QGroupBox(tr("Process load and disk"), this);
  auto* grid = new QGridLayout(box);
  grid->setHorizontalSpacing(10);
  loadAvg_ = value(grid, 0, 0, tr("load avg"));
  loadPeak_ = value(grid, 0, 2, tr("peak"));
  loadMax_ = value(grid, 1, 0, tr("slowest cycle"));
  voices_ = value(grid, 1, 2, tr("voices"));
  diskFill_ = value(grid, 2, 0, tr("least ahead"));  // the stream closest to running dry
  diskRate_ = value(grid, 2, 2, tr("decoded"));  // frames decoded, MB/s of 16-bit stereo
  diskUnderruns_ = value(grid, 3, 0, tr("underruns"));
  streams_ = value(grid, 3, 2, tr("streams open"));
  cacheHits_ = value(grid, 4, 0, tr("cache hits"));
  cacheMemory_ = value(grid, 4, 2, tr("block cache"));
  return box;
}

QGroupBox* HealthPanel::buildLatency() {
  auto* box = new QGroupBox(tr("Note-on latency"), this);
  auto* grid = new QGridLayout(box);
  grid->setVerticalSpacing(1);
  static const char* const rows[3] = {"last", "min", "max"};
  grid->addWidget(label(tr("frames"), "Caption", box), 0, 1, Qt::AlignRight);
  grid->addWidget(label(tr("ms"), "Caption", box), 0, 2, Qt::AlignRight);
  for (int r = 0; r < 3; ++r) {
    grid->addWidget(label(tr(rows[r]), "Caption", box), r + 1, 0);
    latencyFrames_[static_cast<std::size_t>(r)] = label(QStringLiteral("–"), "Value", box);
    latencyMs_[static_cast<std::size_t>(r)] = label(QStringLiteral("–"), "Big", box);
    grid->addWidget(latencyFrames_[static_cast<std::size_t>(r)], r + 1, 1, Qt::AlignRight);
    grid->addWidget(latencyMs_[static_cast<std::size_t>(r)], r + 1, 2, Qt::AlignRight);
  }
  latencyNotes_ = label({}, "Caption", box);
  grid->addWidget(latencyNotes_, 1, 3, 3, 1, Qt::AlignRight | Qt::AlignVCenter);
  grid->setColumnStretch(3, 1);
  histogram_ = new LatencyHistogram(model_, box);
  grid->addWidget(histogram_, 4, 0, 1, 4);
  return box;
}

QGroupBox* HealthPanel::buildSystem() {
  auto* box = new QGroupBox(tr("Memory and real-time"), this);
  auto* grid = new QGridLayout(box);
  grid->setHorizontalSpacing(10);
  preload_ = value(grid, 0, 0, tr("preload"));
  streamMemory_ = value(grid, 0, 2, tr("block cache"));
  backend_ = value(grid, 1, 0, tr("backend"));
  period_ = value(grid, 1, 2, tr("period"));
  priority_ = value(grid, 2, 0, tr("priority"));
  mlock_ = value(grid, 2, 2, tr("mlock"));
  hint_ = label({}, "Hint", box);
  hint_->setWordWrap(true);
  grid->addWidget(hint_, 3, 0, 1, 4);
  return box;
}

void HealthPanel::refresh() {
  refreshXruns();
  refreshLoadAndDisk();
  refreshLatency();
  refreshSystem();
}

void HealthPanel::refreshXruns() {
  for (int s = 0; s < kXrunSeries; ++s) {
    const uint64_t total = model_.total(static_cast<XrunSeries>(s));
    QLabel* counter = counters_[static_cast<std::size_t>(s)];
    counter->setText(QString::number(total));
    colour(counter, total > 0 ? (s == 0 ? theme::kBad : s == 1 ? theme::kOverrun : theme::kUnderrun) : theme::kText);
  }
  const io::LiveStatsSnapshot& s = model_.current().live;
  gaps_->setText(tr("frame-clock gaps %1 (%2 frames lost) · MIDI dropped %3, late %4")
                     .arg(s.detectedXruns).arg(s.gapFrames).arg(s.midiDropped).arg(s.lateEvents));
  timeline_->refresh();
}

void HealthPanel::refreshLoadAndDisk() {
  const HealthInput& in = model_.current();
  loadAvg_->setText(percent(model_.loadAverage()));
  loadPeak_->setText(percent(model_.loadPeak()));
  loadMax_->setText(percent(model_.loadMax()));
  colour(loadPeak_, model_.loadPeak() > 80.0 ? theme::kBad : model_.loadPeak() > 50.0 ? theme::kWarn : theme::kText);
  voices_->setText(QStringLiteral("%1 / %2").arg(in.live.activeVoices).arg(in.live.peakVoices));
  const double aheadMs = model_.ms(in.disk.lowestAheadFrames);
  diskFill_->setText(in.disk.openStreams > 0 ? QStringLiteral("%1 ms").arg(aheadMs, 0, 'f', 0) : tr("idle"));
  colour(diskFill_, in.disk.openStreams > 0 && aheadMs < 2.0 * model_.ms(in.live.periodFrames) ? theme::kWarn : theme::kText);
  diskRate_->setText(QStringLiteral("%1 MB/s").arg(model_.diskMegabytesPerSecond(), 0, 'f', 1));
  diskUnderruns_->setText(QString::number(in.live.streamUnderruns));
  streams_->setText(QString::number(in.disk.openStreams));
  cacheHits_->setText(model_.cacheHitRate() < 0.0 ? QStringLiteral("–") : percent(100.0 * model_.cacheHitRate()));
  cacheMemory_->setText(QStringLiteral("%1 MiB").arg(static_cast<double>(in.disk.cacheBytes) / (1024.0 * 1024.0), 0, 'f', 1));
}

void HealthPanel::refreshLatency() {
  const io::LatencySummary& l = model_.current().live.latency;
  const int64_t values[3] = {l.lastFrames, l.minFrames, l.maxFrames};
  for (std::size_t r = 0; r < 3; ++r) {
    latencyFrames_[r]->setText(l.notes ? QString::number(values[r]) : QStringLiteral("–"));
    latencyMs_[r]->setText(l.notes ? QString::number(model_.ms(values[r]), 'f', 2) : QStringLiteral("–"));
  }
  latencyNotes_->setText(tr("%1 notes\nengine share\n%2 – %3 frames")
                             .arg(l.notes)
                             .arg(l.notes ? l.engineMinFrames : 0)
                             .arg(l.notes ? l.engineMaxFrames : 0));
  histogram_->refresh();
}

void HealthPanel::refreshSystem() {
  const HealthInput& in = model_.current();
  const io::LiveStatsSnapshot& s = in.live;
  const uint64_t perSample = in.preloadSamples > 0 ? in.preloadBytes / in.preloadSamples : 0;
  preload_->setText(QStringLiteral("%1 · %2 KB/sample").arg(megabytes(in.preloadBytes)).arg(static_cast<double>(perSample) / 1e3, 0, 'f', 1));
  streamMemory_->setText(QStringLiteral("%1 · %2 pinned").arg(megabytes(in.cacheBudgetBytes)).arg(in.disk.pinnedBlocks));
  backend_->setText(in.realtime.backend.empty() ? tr("none")
                                                : QStringLiteral("%1 · %2 Hz")
                                                      .arg(QString::fromStdString(in.realtime.backend))
                                                      .arg(s.sampleRate, 0, 'f', 0));
  period_->setText(s.periodFrames ? QStringLiteral("%1 (%2 ms)").arg(s.periodFrames).arg(model_.ms(s.periodFrames), 0, 'f', 2)
                                  : QStringLiteral("–"));
  priority_->setText(in.realtime.priority > 0 ? QStringLiteral("FIFO %1").arg(in.realtime.priority) : tr("not RT"));
  colour(priority_, in.realtime.priority > 0 || !in.realtime.audioThreadKnown ? theme::kText : theme::kWarn);
  mlock_->setText(in.realtime.memoryLocked ? tr("locked") : tr("no"));
  colour(mlock_, in.realtime.memoryLocked ? theme::kGood : theme::kWarn);
  const QString hint = QString::fromStdString(model_.realtimeHint());
  hint_->setText(hint.isEmpty() ? tr("Real-time setup looks good.") : hint);
  colour(hint_, hint.isEmpty() ? theme::kGood : theme::kWarn);
}

QString HealthPanel::counterText(XrunSeries series) const { return counters_[static_cast<std::size_t>(series)]->text(); }

QString HealthPanel::latencyText() const {
  return QStringLiteral("%1 / %2 / %3 ms").arg(latencyMs_[0]->text(), latencyMs_[1]->text(), latencyMs_[2]->text());
}

QString HealthPanel::hintText() const { return hint_->text(); }

}  // namespace spindle::gui
