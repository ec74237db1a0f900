#pragma once
// The two charts of the health panel, painted from a HealthModel.
//
//   XrunTimeline       the last HealthModel::kSeconds, one lane per series (backend
//                      xruns, overrun process calls, stream underruns), a tick per
//                      second that had any, taller for more; minute grid, "now" at right
//   LatencyHistogram   note-on latency, HealthModel::kBinMs bins, count per bin
//
// Thread: gui thread. They hold a pointer to the model and repaint on refresh().
#include <QWidget>
#include <cstdint>
#include <span>

class QPainter;

namespace spindle::gui {

class HealthModel;

// Histogram bars for `counts` (lowest bin first) across `plot`, each as tall as its share
// of the largest count; bins from `alertFrom` on are painted in theme::kBad (an overflow
// bin, values past a limit). The latency test's histogram paints with this too.
void paintBars(QPainter& painter, const QRect& plot, std::span<const uint64_t> counts, std::size_t alertFrom);

class XrunTimeline : public QWidget {
  Q_OBJECT

 public:
  explicit XrunTimeline(const HealthModel& model, QWidget* parent = nullptr);
  void refresh() { update(); }
  QSize sizeHint() const override { return {360, 92}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void paintGrid(QPainter& painter, const QRect& plot) const;
  const HealthModel& model_;
};

class LatencyHistogram : public QWidget {
  Q_OBJECT

 public:
  explicit LatencyHistogram(const HealthModel& model, QWidget* parent = nullptr);
  void refresh() { update(); }
  QSize sizeHint() const override { return {360, 84}; }
  // The bins holding counts, lowest first (tests read what is painted from here).
  int filledBins() const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  const HealthModel& model_;
};

}  // namespace spindle::gui
