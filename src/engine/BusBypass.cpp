// bypass_onccN: any bus effect blended back toward its input by a controller.
//
// The bypass parameter (0 by default, plus depth x controller for each bypass_onccN,
// held to 0..1) is smoothed as every bus parameter is; within a control step it ramps
// from its value at the step's start to its value at the end. At 0 the effect plays as
// written; at b the output is (1 - b) x effect + b x input, so at 1 the bus passes
// through. The effect keeps running while bypassed, so it comes back without a jump in
// its state (a compressor's level, a delay's memory).
#include <algorithm>
#include <array>

#include "engine/BusEffectState.h"

namespace spindle::engine {

void BusEffectState::runBypassable(const BusEffect& effect, const Params& from, float* left, float* right,
                                   int frames) noexcept SPINDLE_REALTIME {
  const auto bypass = [](const Params& p) { return std::clamp(p[static_cast<size_t>(BusParam::Bypass)], 0.0f, 1.0f); };
  const float a = bypass(from), b = bypass(current_);
  if (a == 0.0f && b == 0.0f) {
    run(effect, from, left, right, frames);
    return;
  }
  // A control step is at most kStepFrames frames: its input fits on the stack.
  std::array<float, kStepFrames> dryLeft{}, dryRight{};
  const int n = std::min(frames, kStepFrames);
  std::copy_n(left, n, dryLeft.begin());
  std::copy_n(right, n, dryRight.begin());
  run(effect, from, left, right, n);
  for (int i = 0; i < n; ++i) {
    const float t = a + (b - a) * static_cast<float>(i + 1) / static_cast<float>(n);
    left[i] += t * (dryLeft[static_cast<size_t>(i)] - left[i]);
    right[i] += t * (dryRight[static_cast<size_t>(i)] - right[i]);
  }
}

}  // namespace spindle::engine
