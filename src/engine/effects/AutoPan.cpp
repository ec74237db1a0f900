#include "engine/effects/AutoPan.h"

#include <algorithm>
#include <cmath>

#include "engine/mod/Wave.h"

namespace spindle::engine {

void AutoPan::process(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const double turns = std::max(0.0, static_cast<double>(step.at(BusParam::ApanFreq))) / rate_;
  const double offset = static_cast<double>(step.at(BusParam::ApanPhase)) / 360.0;
  for (int i = 0; i < frames; ++i) {
    const float depth = 0.01f * step.ramped(BusParam::ApanDepth, i);
    const float dry = 0.01f * step.ramped(BusParam::ApanDry, i), wet = 0.01f * step.ramped(BusParam::ApanWet, i);
    const double other = phase_ + offset;
    const float waveLeft = mod::wave(effect.wave, phase_);
    const float waveRight = mod::wave(effect.wave, other - std::floor(other));
    left[i] *= dry + wet * (1.0f - depth * waveLeft);
    right[i] *= dry + wet * (1.0f - depth * waveRight);
    phase_ += turns;
    phase_ -= std::floor(phase_);
  }
}

}  // namespace spindle::engine
