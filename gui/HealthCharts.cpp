#include "gui/HealthCharts.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "gui/HealthModel.h"
#include "gui/Theme.h"

namespace spindle::gui {

namespace {

constexpr int kLabelWidth = 66;  // lane names at the left
constexpr int kAxisHeight = 13;  // time / ms labels below the plot

const QColor& seriesColour(int series) {
  static const QColor colours[kXrunSeries] = {theme::kBad, theme::kOverrun, theme::kUnderrun};
  return colours[series];
}

void smallFont(QPainter& painter) {
  QFont font = painter.font();
  font.setPixelSize(10);
  painter.setFont(font);
}

}  // namespace

XrunTimeline::XrunTimeline(const HealthModel& model, QWidget* parent) : QWidget(parent), model_(model) {
  setMinimumHeight(80);
  setToolTip(tr("Xruns over the last %1 minutes, one column per second").arg(HealthModel::kSeconds / 60));
}

void XrunTimeline::paintGrid(QPainter& painter, const QRect& plot) const {
  painter.setPen(theme::kDim);
  const int minutes = HealthModel::kSeconds / 60;
  for (int m = 0; m <= minutes; ++m) {
    const int x = plot.left() + plot.width() * m / minutes;
    painter.setPen(QPen(theme::kBorder, 1, m == 0 || m == minutes ? Qt::SolidLine : Qt::DotLine));
    painter.drawLine(x, plot.top(), x, plot.bottom());
    painter.setPen(theme::kDim);
    const QString label = m == minutes ? tr("now") : QStringLiteral("−%1 min").arg(minutes - m);
    QRect box(x - 30, plot.bottom() + 1, 60, kAxisHeight);
    int align = Qt::AlignHCenter;
    if (m == 0) {
      box.moveLeft(x);
      align = Qt::AlignLeft;
    } else if (m == minutes) {
      box.moveRight(x);
      align = Qt::AlignRight;
    }
    painter.drawText(box, align | Qt::AlignTop, label);
  }
}

void XrunTimeline::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  smallFont(painter);
  painter.fillRect(rect(), theme::kWindow);
  const QRect plot(kLabelWidth, 2, width() - kLabelWidth - 4, height() - kAxisHeight - 4);
  const int laneHeight = plot.height() / kXrunSeries;
  static const char* const names[kXrunSeries] = {"backend", "overrun", "underrun"};
  for (int s = 0; s < kXrunSeries; ++s) {
    const QRect lane(plot.left(), plot.top() + s * laneHeight, plot.width(), laneHeight - 2);
    painter.fillRect(lane, theme::kPanel);
    painter.setPen(seriesColour(s));
    painter.drawText(QRect(2, lane.top(), kLabelWidth - 6, lane.height()), Qt::AlignRight | Qt::AlignVCenter,
                     tr(names[s]));
  }
  paintGrid(painter, plot);
  const auto& timeline = model_.timeline();
  const double column = static_cast<double>(plot.width()) / HealthModel::kSeconds;
  const auto offset = static_cast<int>(HealthModel::kSeconds - timeline.size());
  for (std::size_t i = 0; i < timeline.size(); ++i) {
    const double x = plot.left() + (offset + static_cast<int>(i)) * column;
    for (int s = 0; s < kXrunSeries; ++s) {
      const uint32_t count = timeline[i][static_cast<std::size_t>(s)];
      if (count == 0) continue;
      // One event fills 45% of the lane; ten or more fill it.
      const double share = std::min(1.0, 0.45 + 0.55 * std::log10(static_cast<double>(count)));
      const double h = (laneHeight - 4) * share;
      const double bottom = plot.top() + (s + 1) * laneHeight - 3;
      painter.fillRect(QRectF(x, bottom - h, std::max(2.0, column), h), seriesColour(s));
    }
  }
}

void paintBars(QPainter& painter, const QRect& plot, std::span<const uint64_t> counts, std::size_t alertFrom) {
  if (counts.empty()) return;
  const uint64_t most = std::max<uint64_t>(1, *std::max_element(counts.begin(), counts.end()));
  const double barWidth = static_cast<double>(plot.width()) / static_cast<double>(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    const double h = std::max(2.0, (plot.height() - 2) * static_cast<double>(counts[i]) / static_cast<double>(most));
    const QRectF bar(plot.left() + static_cast<double>(i) * barWidth + 1, plot.bottom() - h,
                     std::max(1.0, barWidth - 2), h);
    painter.fillRect(bar, i >= alertFrom ? theme::kBad : theme::kAccent);
  }
}

LatencyHistogram::LatencyHistogram(const HealthModel& model, QWidget* parent) : QWidget(parent), model_(model) {
  setMinimumHeight(70);
  setToolTip(tr("Note-on latency of every note played, %1 ms per bar").arg(HealthModel::kBinMs));
}

int LatencyHistogram::filledBins() const {
  const auto& bins = model_.latencyBins();
  return static_cast<int>(std::count_if(bins.begin(), bins.end(), [](uint64_t c) { return c > 0; }));
}

void LatencyHistogram::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  smallFont(painter);
  painter.fillRect(rect(), theme::kWindow);
  const QRect plot(4, 4, width() - 8, height() - kAxisHeight - 6);
  painter.fillRect(plot, theme::kPanel);
  paintBars(painter, plot, model_.latencyBins(), HealthModel::kLatencyBins - 1);
  const double barWidth = static_cast<double>(plot.width()) / HealthModel::kLatencyBins;
  painter.setPen(theme::kDim);
  for (int ms = 0; ms <= static_cast<int>(HealthModel::kLatencyBins * HealthModel::kBinMs); ms += 4) {
    const int x = plot.left() + static_cast<int>(ms / HealthModel::kBinMs * barWidth);
    painter.drawLine(x, plot.bottom() + 1, x, plot.bottom() + 3);
    painter.drawText(QRect(x - 20, plot.bottom() + 2, 40, kAxisHeight), Qt::AlignHCenter | Qt::AlignTop,
                     ms == 0 ? QStringLiteral("0 ms") : QString::number(ms));
  }
  if (model_.latencyCount() == 0) {
    painter.drawText(plot, Qt::AlignCenter, tr("no notes yet"));
  }
}

}  // namespace spindle::gui
