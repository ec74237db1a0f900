#include "engine/mod/Wave.h"

#include <cmath>
#include <numbers>

namespace spindle::engine::mod {

float wave(int shape, double phase) noexcept SPINDLE_REALTIME {
  const auto p = static_cast<float>(phase);
  switch (shape) {
    case 0: return p < 0.25f ? 4.0f * p : (p < 0.75f ? 2.0f - 4.0f * p : 4.0f * p - 4.0f);  // triangle
    case 2: return p < 0.75f ? 1.0f : 0.0f;   // pulse 75 %
    case 3: return p < 0.5f ? 1.0f : 0.0f;    // square
    case 4: return p < 0.25f ? 1.0f : 0.0f;   // pulse 25 %
    case 5: return p < 0.125f ? 1.0f : 0.0f;  // pulse 12.5 %
    case 6: return 2.0f * p - 1.0f;           // saw up
    case 7: return 1.0f - 2.0f * p;           // saw down
    case kUpSine: return static_cast<float>(0.5 + 0.5 * std::sin(2.0 * std::numbers::pi * phase));
    case kUpSquare: return phase < 0.5 ? 1.0f : 0.0f;
    case kUpSaw: return p;
    default: return static_cast<float>(std::sin(2.0 * std::numbers::pi * phase));
  }
}

void SinePhasor::setFrequency(double hz, double sampleRate) noexcept SPINDLE_REALTIME {
  const double w = 2.0 * std::numbers::pi * (hz > 0.0 ? hz : 0.0) / sampleRate;
  rotCos_ = std::cos(w);
  rotSin_ = std::sin(w);
}

void SinePhasor::setAngle(double radians) noexcept SPINDLE_REALTIME {
  s_ = std::sin(radians);
  c_ = std::cos(radians);
  sinceNormal_ = 0;
}

double SinePhasor::angle() const noexcept SPINDLE_REALTIME { return std::atan2(s_, c_); }

}  // namespace spindle::engine::mod
