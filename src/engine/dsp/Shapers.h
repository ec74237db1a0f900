#pragma once
// Stateless bus effects, run in place on a stereo pair. Audio thread only.
//
// Each takes its parameter at the first frame (`from`) and the last (`to`) and moves
// it linearly between them, so a parameter that moves does not step.
//   gain     l, r times 10^(dB/20).
//   rectify  x + a * (max(x, 0) - x), a = rectify / 100: 0 passes through, 1 keeps the
//            positive half-waves only (half-wave rectification: -3.01 dB on a signal
//            symmetric about 0, plus the DC and the harmonics it adds).
//   width    the equal-power stereo width: l' = c*l + s*r, r' = s*l + c*r with
//            theta = (1 - width/100) * pi/4, c = cos(theta), s = sin(theta). 100 passes
//            through, 0 sums to mono at equal power (a centred signal rises by 3.01 dB, as
//            two equal channels summed with gain 1/sqrt(2) do), -100 swaps the sides.
#include <algorithm>
#include <cmath>

#include "core/Realtime.h"

namespace spindle::engine::dsp {

inline void rampGain(float* left, float* right, int frames, float fromDb, float toDb) noexcept SPINDLE_REALTIME {
  const float a = std::pow(10.0f, fromDb * 0.05f), b = std::pow(10.0f, toDb * 0.05f);
  const float step = frames > 0 ? (b - a) / static_cast<float>(frames) : 0.0f;
  for (int i = 0; i < frames; ++i) {
    const float g = a + step * static_cast<float>(i + 1);
    left[i] *= g;
    right[i] *= g;
  }
}

inline void rampRectify(float* left, float* right, int frames, float fromPercent, float toPercent) noexcept
    SPINDLE_REALTIME {
  const float a = std::clamp(fromPercent, 0.0f, 100.0f) * 0.01f, b = std::clamp(toPercent, 0.0f, 100.0f) * 0.01f;
  const float step = frames > 0 ? (b - a) / static_cast<float>(frames) : 0.0f;
  for (int i = 0; i < frames; ++i) {
    const float k = a + step * static_cast<float>(i + 1);
    left[i] += k * (std::max(left[i], 0.0f) - left[i]);
    right[i] += k * (std::max(right[i], 0.0f) - right[i]);
  }
}

inline void rampWidth(float* left, float* right, int frames, float fromPercent, float toPercent) noexcept
    SPINDLE_REALTIME {
  constexpr float kQuarterPi = 0.785398163397448f;
  const float a = (1.0f - std::clamp(fromPercent, -100.0f, 100.0f) * 0.01f) * kQuarterPi;
  const float b = (1.0f - std::clamp(toPercent, -100.0f, 100.0f) * 0.01f) * kQuarterPi;
  const float step = frames > 0 ? (b - a) / static_cast<float>(frames) : 0.0f;
  for (int i = 0; i < frames; ++i) {
    const float theta = a + step * static_cast<float>(i + 1);
    const float c = std::cos(theta), s = std::sin(theta);
    const float l = left[i], r = right[i];
    left[i] = c * l + s * r;
    right[i] = s * l + c * r;
  }
}

}  // namespace spindle::engine::dsp
