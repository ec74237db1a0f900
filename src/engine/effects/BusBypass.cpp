// Bypass: any bus effect blended back toward its input, by a controller (bypass_onccN)
// or by the player (BusEffectState::bypass, the part's SetPartEffectBypass flags).
//
// The bypass parameter (0 by default, plus depth x controller for each bypass_onccN,
// held to 0..1) is smoothed as every bus parameter is; within a control step it ramps
// from its value at the step's start to its value at the end. The player's bypass p
// moves linearly between 0 and 1 over kBypassSeconds (5 ms), one step a frame, so a
// toggle never clicks. The two combine as two bypasses in series: with b the
// controller's, the output is (1 - t) x effect + t x input, t = 1 - (1 - b)(1 - p); at
// either 1 the bus passes through.
//
// The effect keeps running while bypassed, fed its input, so it comes back without a
// jump in its state: a compressor's level, and a delay's or reverb's memory, which holds
// what was played meanwhile (un-bypassing a reverb brings in the tail of the notes
// played while it was bypassed, as a send to a muted return would).
#include <algorithm>
#include <array>
#include <cmath>

#include "engine/effects/BusEffectState.h"

namespace spindle::engine {

void BusEffectState::startBypass(double sampleRate) noexcept SPINDLE_REALTIME {
  playerStep_ = static_cast<float>(1.0 / std::max(1.0, kBypassSeconds * sampleRate));
  player_ = playerTarget_;
}

void BusEffectState::runBypassable(const BusEffect& effect, const EffectStep& step, float* left, float* right,
                                   int frames) noexcept SPINDLE_REALTIME {
  const auto bypass = [](const BusParams& p) noexcept SPINDLE_REALTIME {
    return std::clamp(busParam(p, BusParam::Bypass), 0.0f, 1.0f);
  };
  const float a = bypass(step.from), b = bypass(step.to);
  if (a == 0.0f && b == 0.0f && player_ == 0.0f && playerTarget_ == 0.0f) {
    run(effect, step, left, right, frames);
    return;
  }
  // A run lies within one control step: its input fits on the stack.
  const int n = std::min(frames, kStepFrames);
  std::array<float, kStepFrames> dryLeft{}, dryRight{};
  std::copy_n(left, n, dryLeft.begin());
  std::copy_n(right, n, dryRight.begin());
  run(effect, step, left, right, n);
  for (int i = 0; i < n; ++i) {
    player_ = playerTarget_ > player_ ? std::min(playerTarget_, player_ + playerStep_)
                                      : std::max(playerTarget_, player_ - playerStep_);
    const float t = 1.0f - (1.0f - step.ramp.at(a, b, i)) * (1.0f - player_);
    left[i] += t * (dryLeft[static_cast<size_t>(i)] - left[i]);
    right[i] += t * (dryRight[static_cast<size_t>(i)] - right[i]);
  }
}

}  // namespace spindle::engine
