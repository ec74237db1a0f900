#pragma once
// 128-point curves given by a few points (SFZ's amp_velcurve_N and <curve> vNNN, the
// curves other loaders generate): the points given, straight lines between them, and
// implicit end points 0 -> 0 and 127 -> 1 unless those are given too.
#include <array>
#include <bitset>

namespace spindle::instrument {

struct CurvePoints {
  std::array<float, 128> values{};
  std::bitset<128> given;

  void set(int index, float value) {
    values[static_cast<size_t>(index)] = value;
    given.set(static_cast<size_t>(index));
  }
  bool empty() const { return given.none(); }
};

std::array<float, 128> interpolateCurve(const CurvePoints& points);

// One of the instrument's numbered curves (Instrument::curves), which controller
// modulations name by index: an SFZ <curve> (curve_index=N), or one a loader generates.
struct Curve {
  int index = 0;
  std::array<float, 128> points{};
};

}  // namespace spindle::instrument
