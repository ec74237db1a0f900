#pragma once
// Seconds to whole frames for the modulation sources' delays, fades and stages.
#include <cmath>
#include <cstdint>

#include "core/Realtime.h"

namespace spindle::engine::mod {

// Rounded to the nearest frame, never negative; NaN counts as 0.
inline int64_t toFrames(float seconds, double sampleRate) noexcept SPINDLE_REALTIME {
  if (!(seconds > 0.0f)) return 0;
  return std::llround(static_cast<double>(seconds) * sampleRate);
}

}  // namespace spindle::engine::mod
