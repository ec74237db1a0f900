#include "engine/effects/Phaser.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/mod/Wave.h"

namespace spindle::engine {

void Phaser::start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME {
  channels_ = {};
  rate_ = sampleRate;
  phase_ = 0.0;
}

// The control step's sweep from the SFZ phaser's or DecentSampler's parameters.
Phaser::Sweep Phaser::sweep(const BusEffect& effect, const EffectStep& step) const noexcept SPINDLE_REALTIME {
  Sweep s;
  if (effect.type == BusEffectType::ModPhaser) {
    s.centreHz = std::max(10.0, static_cast<double>(step.at(BusParam::CentreFreq)));
    s.octaves = kOctaves * std::clamp(static_cast<double>(step.at(BusParam::ModDepth)), 0.0, 1.0);
    s.turns = std::max(0.0, static_cast<double>(step.at(BusParam::ModRate))) / rate_;
    s.stages = kDecentStages;
    s.feedback = std::clamp(step.at(BusParam::ModFeedback), -kMaxFeedback, kMaxFeedback);
    s.mix = std::clamp(step.at(BusParam::Mix), 0.0f, 1.0f);
    return s;
  }
  s.octaves = kOctaves * std::clamp(static_cast<double>(step.at(BusParam::PhaserDepth)), 0.0, 100.0) / 100.0;
  s.turns = std::max(0.0, static_cast<double>(step.at(BusParam::PhaserFreq))) / rate_;
  s.offset = static_cast<double>(step.at(BusParam::PhaserPhase)) / 100.0;
  s.wave = effect.wave;
  s.stages = std::clamp(static_cast<int>(step.at(BusParam::PhaserStages)), 1, kMaxStages);
  s.feedback = std::clamp(0.01f * step.at(BusParam::PhaserFeedback), 0.0f, kMaxFeedback);
  s.mix = 0.5f * std::clamp(0.01f * step.at(BusParam::PhaserWet), 0.0f, 1.0f);
  return s;
}

// The first-order all-pass (a + z^-1) / (1 + a z^-1) that turns the phase by 90 degrees
// at the break frequency the LFO gives at `phase`.
float Phaser::coefficient(const Sweep& s, double phase) const noexcept SPINDLE_REALTIME {
  const double hz = s.centreHz * std::exp2(s.octaves * static_cast<double>(mod::wave(s.wave, phase)));
  const double t = std::tan(std::numbers::pi * std::clamp(hz, 10.0, 0.45 * rate_) / rate_);
  return static_cast<float>((t - 1.0) / (t + 1.0));
}

float Phaser::run(Channel& c, float x, float coefficient, int stages, float feedback) noexcept SPINDLE_REALTIME {
  float v = x + feedback * c.last;
  for (size_t s = 0; s < static_cast<size_t>(stages); ++s) {
    const float y = coefficient * v + c.state[s];
    c.state[s] = v - coefficient * y;
    v = y;
  }
  c.last = v;
  return v;
}

void Phaser::process(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const Sweep s = sweep(effect, step);
  for (int i = 0; i < frames; ++i) {
    const double other = phase_ + s.offset;
    const float aLeft = coefficient(s, phase_);
    const float aRight = s.offset == 0.0 ? aLeft : coefficient(s, other - std::floor(other));
    left[i] = (1.0f - s.mix) * left[i] + s.mix * run(channels_[0], left[i], aLeft, s.stages, s.feedback);
    right[i] = (1.0f - s.mix) * right[i] + s.mix * run(channels_[1], right[i], aRight, s.stages, s.feedback);
    phase_ += s.turns;
    phase_ -= std::floor(phase_);
  }
}

}  // namespace spindle::engine
