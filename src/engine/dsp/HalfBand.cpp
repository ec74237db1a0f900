#include "engine/dsp/HalfBand.h"

#include <cmath>
#include <numbers>

namespace spindle::engine::dsp {

HalfBandTaps halfBandTaps() noexcept SPINDLE_REALTIME {
  std::array<double, kHalfBandTaps> exact{};
  constexpr double kWidth = 2 * kHalfBandTaps + 1;  // the window's half-length
  double sum = 0.0;
  for (size_t j = 0; j < exact.size(); ++j) {
    const double k = 2.0 * static_cast<double>(j) + 1.0;
    const double blackman =
        0.42 + 0.5 * std::cos(std::numbers::pi * k / kWidth) + 0.08 * std::cos(2.0 * std::numbers::pi * k / kWidth);
    exact[j] = std::sin(std::numbers::pi * k / 2.0) / (std::numbers::pi * k) * blackman;
    sum += 2.0 * exact[j];
  }
  HalfBandTaps taps{};
  for (size_t j = 0; j < taps.size(); ++j) taps[j] = static_cast<float>(exact[j] * 0.5 / sum);
  return taps;
}

// The midpoint between in_[kTaps - 1] and in_[kTaps]: twice the odd taps (the
// zero-stuffed signal's gain of 2) times the frames either side.
void HalfBandUp::process(const HalfBandTaps& taps, float x, float& first, float& second) noexcept SPINDLE_REALTIME {
  in_.push(x);
  float mid = 0.0f;
  for (int j = 0; j < kHalfBandTaps; ++j)
    mid += taps[static_cast<size_t>(j)] * (in_[kHalfBandTaps - 1 - j] + in_[kHalfBandTaps + j]);
  first = in_[kHalfBandTaps - 1];
  second = 2.0f * mid;
}

// The even frame at the centre, even_[kTaps], and the odd frames around it: odd frame
// m sits after even frame m, so the centre's neighbours at 2j+1 are odd_[kTaps - 1 - j]
// before it and odd_[kTaps + j] after it.
float HalfBandDown::process(const HalfBandTaps& taps, float first, float second) noexcept SPINDLE_REALTIME {
  even_.push(first);
  odd_.push(second);
  float out = 0.5f * even_[kHalfBandTaps];
  for (int j = 0; j < kHalfBandTaps; ++j)
    out += taps[static_cast<size_t>(j)] * (odd_[kHalfBandTaps - 1 - j] + odd_[kHalfBandTaps + j]);
  return out;
}

}  // namespace spindle::engine::dsp
