#pragma once
// CurveTable: the controller curves of one Program (curve_index 0..255), 128 points
// each, read with linear interpolation between points (core/Curve.h). Built on the
// loader thread; the audio thread only calls eval().
//
// Built-in curves (SFZ reference, curve_index; as sfizz plays them), x = value 0..1:
//   0 linear x (the default)   1 bipolar 2x - 1     2 inverted 1 - x
//   3 inverted bipolar 1 - 2x  4 x^2                5 sqrt(x)        6 sqrt(1 - x)
// A <curve> header with the same index replaces a built-in one. An index no curve
// defines reads as curve 0. The engine's fixed laws (pan, velocity, crossfades, bend)
// are in Curves.h beside it.
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/Realtime.h"

namespace spindle::engine::mod {

// What a control adds to its target (a region's X_onccN, a bus effect's name_onccN):
// depth times the controller through its curve, quantised down to a multiple of `step`
// (X_stepccN; 0: off).
inline float controlValue(float depth, float curved, float step) noexcept SPINDLE_REALTIME {
  float v = depth * curved;
  if (step > 0.0f) v = std::trunc(v / step) * step;
  return v;
}

class CurveTable {
 public:
  static constexpr int kCount = 256;
  static constexpr int kPoints = 128;
  using Points = std::array<float, kPoints>;

  CurveTable();
  void define(int index, const Points& points);
  // The curve at x in 0..1 (clamped).
  float eval(int index, float x) const noexcept SPINDLE_REALTIME;

 private:
  std::array<int16_t, kCount> slot_{};  // index -> points_ entry, -1 = undefined
  std::vector<Points> points_;
};

}  // namespace spindle::engine::mod
