#include "engine/mod/CurveTable.h"

#include <cmath>

#include "core/Curve.h"

namespace spindle::engine::mod {

namespace {

CurveTable::Points builtIn(int index) {
  CurveTable::Points p{};
  for (int i = 0; i < CurveTable::kPoints; ++i) {
    const double x = i / static_cast<double>(CurveTable::kPoints - 1);
    double y = x;
    switch (index) {
      case 1: y = 2.0 * x - 1.0; break;
      case 2: y = 1.0 - x; break;
      case 3: y = 1.0 - 2.0 * x; break;
      case 4: y = x * x; break;
      case 5: y = std::sqrt(x); break;
      case 6: y = std::sqrt(1.0 - x); break;
      default: break;
    }
    p[static_cast<size_t>(i)] = static_cast<float>(y);
  }
  return p;
}

}  // namespace

CurveTable::CurveTable() {
  slot_.fill(-1);
  for (int i = 0; i <= 6; ++i) define(i, builtIn(i));
}

void CurveTable::define(int index, const Points& points) {
  if (index < 0 || index >= kCount) return;
  int16_t& s = slot_[static_cast<size_t>(index)];
  if (s < 0) {
    s = static_cast<int16_t>(points_.size());
    points_.push_back(points);
  } else {
    points_[static_cast<size_t>(s)] = points;
  }
}

float CurveTable::eval(int index, float x) const noexcept SPINDLE_REALTIME {
  const int16_t s = index >= 0 && index < kCount ? slot_[static_cast<size_t>(index)] : int16_t{-1};
  return curveAt(points_[static_cast<size_t>(s >= 0 ? s : slot_[0])], x);
}

}  // namespace spindle::engine::mod
