#pragma once
// Curve: the one evaluator of Spindle's curves, piecewise linear. A curve is a row of
// points; between two points it is the straight line through them, beyond the ends it
// holds the end's value.
//
//   curveAt(points, x)  points (x_k, y_k) with x ascending, in float or double:
//                       DecentSampler's translation tables (dspreset/Translation.h, and
//                       its modulators' bindings, dspreset/ModulatorSpec.h)
//   curveAt(values, x)  n values at x_k = k / (n - 1), x clamped to [0, 1]: the
//                       controller curves (curve_index, engine/mod/CurveTable.h), the
//                       bus effects' controller and LFO curves (engine/mod/BusModulation.h)
//
// The evenly spaced form finds its segment by index, for the audio thread: with
// p = x (n - 1), i = min(floor(p), n - 2), the value is v_i + (v_{i+1} - v_i)(p - i).
// An empty row of values reads 0, a single value reads as that value everywhere; an
// empty row of points passes x through.
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "core/Realtime.h"

namespace spindle {

template <class T>
struct BasicCurvePoint {
  T x = 0, y = 0;
  auto operator<=>(const BasicCurvePoint&) const = default;
};
using CurvePoint = BasicCurvePoint<double>;

// Points in ascending x; the last point at or left of x wins over an earlier one at the same x.
template <class T>
T curveAt(std::span<const BasicCurvePoint<T>> points, T x) noexcept {
  if (points.empty()) return x;
  T out = points.front().y;
  for (size_t i = 1; i < points.size(); ++i) {
    const BasicCurvePoint<T>& a = points[i - 1];
    const BasicCurvePoint<T>& b = points[i];
    if (x >= b.x) out = b.y;
    else if (x >= a.x) out = b.x > a.x ? a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x) : b.y;
  }
  return out;
}
template <class T>
T curveAt(const std::vector<BasicCurvePoint<T>>& points, T x) noexcept {
  return curveAt(std::span<const BasicCurvePoint<T>>(points), x);
}

inline float curveAt(std::span<const float> values, float x) noexcept SPINDLE_REALTIME {
  const size_t n = values.size();
  if (n < 2) return n == 0 ? 0.0f : values[0];
  const float pos = std::clamp(x, 0.0f, 1.0f) * static_cast<float>(n - 1);
  const size_t i = std::min(static_cast<size_t>(pos), n - 2);
  const float frac = pos - static_cast<float>(i);
  return values[i] + (values[i + 1] - values[i]) * frac;
}

}  // namespace spindle
