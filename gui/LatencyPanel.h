#pragma once
// LatencyPanel: spindle-latency in the GUI. Runs the wakeup test (a SCHED_FIFO thread
// sleeping to absolute deadlines, as cyclictest) and, at the same time, the JACK callback
// test when a JACK server is running (never starts one), for N seconds; then plots the
// wakeup lateness histogram (power-of-two bands, as spindle-latency prints them), the
// summaries with p99 and max, and the smallest safe period at 44.1 and 48 kHz.
//
//   [seconds ▾] [Run]  ▓▓▓▓░░░ 3 / 10 s
//   wakeup: cycles 9998  min 3 us  avg 6.2 us  p50 6 us  p99 12 us  max 45 us
//   JACK:   ...                              (or why it did not run)
//   ┌ histogram ───────────────┐  ┌ period │ 44.1 kHz │ 48 kHz ┐
//   │  ▂▅█▃▁                   │  │   32   │ 0.73 ms ✓│ ...    │
//
// Threads: gui thread. The tests run on a BackgroundJob worker (the JACK test on one more
// thread beside it); a timer shows progress and picks the results up. Never the audio
// thread; the engine keeps playing while it measures.
#include <QWidget>
#include <optional>
#include <vector>

#include "gui/BackgroundJob.h"
#include "tools/JackTest.h"
#include "tools/PeriodTable.h"
#include "tools/WakeupTest.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace spindle::gui {

struct LatencyRun {
  tools::WakeupResult wakeup;
  tools::JackResult jack;
  tools::PeriodTable periods;
};

// The wakeup histogram as bars, one per power-of-two band, labelled below.
class BandHistogram : public QWidget {
  Q_OBJECT

 public:
  explicit BandHistogram(QWidget* parent = nullptr);
  void setHistogram(const tools::Histogram& histogram);
  const std::vector<uint64_t>& counts() const noexcept { return counts_; }
  QSize sizeHint() const override { return {420, 140}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<uint64_t> counts_;
  std::vector<QString> labels_;
};

class LatencyPanel : public QWidget {
  Q_OBJECT

 public:
  explicit LatencyPanel(QWidget* parent = nullptr);

  bool run(int seconds);  // false while a run is going on
  bool running() const { return job_.running(); }
  const std::optional<LatencyRun>& result() const noexcept { return result_; }
  BandHistogram* histogram() const noexcept { return histogram_; }
  QTableWidget* periodTable() const noexcept { return table_; }

 signals:
  void finished();

 private:
  void buildLayout();
  void tick();
  void showResult();
  void fillTable(const tools::PeriodTable& table);

  BackgroundJob<LatencyRun> job_;
  std::optional<LatencyRun> result_;
  double startedAt_ = 0.0;
  int seconds_ = 0;
  QSpinBox* secondsBox_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* wakeupText_ = nullptr;
  QLabel* jackText_ = nullptr;
  QLabel* safeText_ = nullptr;
  BandHistogram* histogram_ = nullptr;
  QTableWidget* table_ = nullptr;
  QTimer* timer_ = nullptr;
};

}  // namespace spindle::gui
