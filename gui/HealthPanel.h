#pragma once
// HealthPanel: the always-visible health of live playing: xruns (counters and the
// timeline of the last minutes), process load, disk, note-on latency (last, min, max
// in frames and ms, and the histogram), memory, and the real-time setup with a hint
// when something is off.
//
// Thread: gui thread. refresh() re-reads the HealthModel (EngineLink calls it at up to
// 30 Hz through its statsUpdated signal).
#include <QWidget>
#include <array>

#include "gui/HealthModel.h"

class QLabel;
class QGridLayout;
class QGroupBox;

namespace spindle::gui {

class XrunTimeline;
class LatencyHistogram;

class HealthPanel : public QWidget {
  Q_OBJECT

 public:
  explicit HealthPanel(const HealthModel& model, QWidget* parent = nullptr);
  void refresh();

  QString counterText(XrunSeries series) const;
  QString latencyText() const;  // "last / min / max" line, as shown
  QString hintText() const;
  const XrunTimeline* timeline() const noexcept { return timeline_; }
  const LatencyHistogram* histogram() const noexcept { return histogram_; }

 private:
  QGroupBox* buildXruns();
  QGroupBox* buildLoadAndDisk();
  QGroupBox* buildLatency();
  QGroupBox* buildSystem();
  QLabel* value(QGridLayout* grid, int row, int column, const QString& caption);
  void refreshXruns();
  void refreshLoadAndDisk();
  void refreshLatency();
  void refreshSystem();

  const HealthModel& model_;
  std::array<QLabel*, kXrunSeries> counters_{};
  QLabel* gaps_ = nullptr;
  XrunTimeline* timeline_ = nullptr;
  QLabel *loadAvg_ = nullptr, *loadPeak_ = nullptr, *loadMax_ = nullptr, *voices_ = nullptr;
  QLabel *diskFill_ = nullptr, *diskRate_ = nullptr, *diskUnderruns_ = nullptr, *streams_ = nullptr;
  QLabel *cacheHits_ = nullptr, *cacheMemory_ = nullptr;  // the decoded-block cache
  std::array<QLabel*, 3> latencyFrames_{}, latencyMs_{};
  QLabel* latencyNotes_ = nullptr;
  LatencyHistogram* histogram_ = nullptr;
  QLabel *preload_ = nullptr, *streamMemory_ = nullptr;
  QLabel *backend_ = nullptr, *period_ = nullptr, *priority_ = nullptr, *mlock_ = nullptr;
  QLabel* hint_ = nullptr;
};

}  // namespace spindle::gui
