#include "instrument/Curves.h"

namespace spindle::instrument {

std::array<float, 128> interpolateCurve(const CurvePoints& points) {
  CurvePoints full = points;
  if (!full.given.test(0)) full.set(0, 0.0f);
  if (!full.given.test(127)) full.set(127, 1.0f);
  std::array<float, 128> out{};
  size_t left = 0;
  out[0] = full.values[0];
  for (size_t right = 1; right < 128; ++right) {
    if (!full.given.test(right)) continue;
    const float a = full.values[left], b = full.values[right];
    const float span = static_cast<float>(right - left);
    for (size_t i = left + 1; i <= right; ++i)
      out[i] = a + (b - a) * static_cast<float>(i - left) / span;
    left = right;
  }
  return out;
}

}  // namespace spindle::instrument
