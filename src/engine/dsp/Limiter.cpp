#include "engine/dsp/Limiter.h"

#include <algorithm>
#include <cmath>

#include "engine/dsp/Compressor.h"

namespace spindle::engine::dsp {

void Limiter::setup(double sampleRate) noexcept SPINDLE_REALTIME {
  const double rate = 2.0 * sampleRate;
  fallPole_ = onePole(0.5, rate);
  peakPole_ = onePole(0.0008, rate);
  gainPole_ = onePole(0.0004, rate);
  sides_ = {};
  oversampled_.setup();
}

float Limiter::gainFor(Side& side, float x) const noexcept SPINDLE_REALTIME {
  const float magnitude = std::fabs(x);
  side.peak = std::max(magnitude, fallPole_ * side.peak + (1.0f - fallPole_) * magnitude);
  side.smoothed = peakPole_ * side.smoothed + (1.0f - peakPole_) * side.peak;
  const float target = side.smoothed > 1.0f ? 1.0f / side.smoothed : 1.0f;
  side.gain = gainPole_ * side.gain + (1.0f - gainPole_) * target;
  return side.gain;
}

void Limiter::process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  oversampled_.process(left, right, frames, [&](float& l, float& r) {
    l *= gainFor(sides_[0], l);
    r *= gainFor(sides_[1], r);
  });
}

}  // namespace spindle::engine::dsp
