#include "engine/dsp/Lofi.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine::dsp {

void Lofi::setup(double sampleRate) noexcept SPINDLE_REALTIME {
  taps_ = halfBandTaps();
  sampleRate_ = sampleRate;
  phase_ = 0.0;
  channels_ = {};
}

float Lofi::bitStep(float bitred) noexcept SPINDLE_REALTIME {
  const float depth = std::clamp(bitred, 0.0f, 100.0f);
  return depth > 0.0f ? 1.0f / (0.75f * (101.0f - depth)) : 0.0f;
}

double Lofi::heldFrames(float decim, double sampleRate) noexcept SPINDLE_REALTIME {
  const double depth = std::clamp(static_cast<double>(decim), 0.0, 100.0);
  constexpr double kBase = 1.289079, kSlope = 0.1384141, kSeconds = 1.313298e-4;
  return std::max(1.0, kSeconds * (std::pow(kBase, kSlope * depth) - 1.0) * sampleRate);
}

// Pushes the stepped value x and gives the smoothed one. With s the stepped values,
// centre s[kDelay] and the 2x signal's midpoints between neighbours: out = s[c] / 2 +
// the taps times the midpoints on either side at distances 1, 3, 5... (2x frames).
float Lofi::smooth(History<kHistory>& steps, float x) const noexcept SPINDLE_REALTIME {
  steps.push(x);
  constexpr int centre = kHistory - 1 - kDelay;
  float out = 0.5f * steps[centre];
  for (int j = 0; j < kHalfBandTaps; ++j) {
    const float before = 0.5f * (steps[centre - j - 1] + steps[centre - j]);
    const float after = 0.5f * (steps[centre + j] + steps[centre + j + 1]);
    out += taps_[static_cast<size_t>(j)] * (before + after);
  }
  return out;
}

// One frame of one channel: rounded to `step` (none at 0) and smoothed, then held
// unless `renew` and smoothed.
float Lofi::crush(Channel& c, float x, float step, bool decimating, bool renew) const noexcept SPINDLE_REALTIME {
  if (step > 0.0f) x = smooth(c.rounded, std::copysign(std::floor(0.5f + std::fabs(x) / step), x) * step);
  if (!decimating) return x;
  if (renew) c.held = x;
  return smooth(c.holds, c.held);
}

void Lofi::process(float* left, float* right, int frames, float bitred, float decim) noexcept SPINDLE_REALTIME {
  const float step = bitStep(bitred);
  const bool decimating = decim > 0.0f;
  if (step == 0.0f && !decimating) {
    channels_ = {};
    phase_ = 0.0;
    return;
  }
  const double advance = decimating ? 1.0 / heldFrames(decim, sampleRate_) : 1.0;
  for (int i = 0; i < frames; ++i) {
    phase_ += advance;
    const bool renew = phase_ >= 1.0;
    phase_ -= std::floor(phase_);
    left[i] = crush(channels_[0], left[i], step, decimating, renew);
    right[i] = crush(channels_[1], right[i], step, decimating, renew);
  }
}

}  // namespace spindle::engine::dsp
