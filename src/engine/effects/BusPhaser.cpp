#include "engine/effects/BusPhaser.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/effects/BusMemory.h"
#include "engine/mod/LfoBank.h"

namespace spindle::engine {

namespace {

// The first-order all-pass (a + z^-1) / (1 + a z^-1) that turns the phase by 90 degrees at f.
float allPassCoefficient(double hz, double rate) noexcept SPINDLE_REALTIME {
  const double t = std::tan(std::numbers::pi * std::clamp(hz, 10.0, 0.45 * rate) / rate);
  return static_cast<float>((t - 1.0) / (t + 1.0));
}

}  // namespace

void BusPhaser::start(double sampleRate) noexcept SPINDLE_REALTIME {
  channels_ = {};
  rate_ = sampleRate;
  phase_ = 0.0;
}

double BusPhaser::breakHz(double wave, double depthPercent) noexcept SPINDLE_REALTIME {
  return kCentreHz * std::exp2(kOctaves * std::clamp(depthPercent, 0.0, 100.0) / 100.0 * wave);
}

float BusPhaser::run(Channel& c, float x, float coefficient, int stages, float feedback) noexcept SPINDLE_REALTIME {
  float v = x + feedback * c.last;
  for (size_t s = 0; s < static_cast<size_t>(stages); ++s) {
    const float y = coefficient * v + c.state[s];
    c.state[s] = v - coefficient * y;
    v = y;
  }
  c.last = v;
  return v;
}

void BusPhaser::process(const BusEffect& effect, const Params& p, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const double step = std::max(0.0, static_cast<double>(busParam(p, BusParam::PhaserFreq))) / rate_;
  const double offset = static_cast<double>(busParam(p, BusParam::PhaserPhase)) / 100.0;
  const auto depth = static_cast<double>(busParam(p, BusParam::PhaserDepth));
  const int stages = std::clamp(static_cast<int>(busParam(p, BusParam::PhaserStages)), 1, kMaxStages);
  const float feedback = std::clamp(0.01f * busParam(p, BusParam::PhaserFeedback), 0.0f, kMaxFeedback);
  const float half = 0.5f * std::clamp(0.01f * busParam(p, BusParam::PhaserWet), 0.0f, 1.0f);
  for (int i = 0; i < frames; ++i) {
    const double other = phase_ + offset;
    const float waveLeft = mod::LfoBank::wave(effect.wave, phase_);
    const float waveRight = mod::LfoBank::wave(effect.wave, other - std::floor(other));
    const float aLeft = allPassCoefficient(breakHz(static_cast<double>(waveLeft), depth), rate_);
    const float aRight = allPassCoefficient(breakHz(static_cast<double>(waveRight), depth), rate_);
    left[i] = (1.0f - half) * left[i] + half * run(channels_[0], left[i], aLeft, stages, feedback);
    right[i] = (1.0f - half) * right[i] + half * run(channels_[1], right[i], aRight, stages, feedback);
    phase_ += step;
    phase_ -= std::floor(phase_);
  }
}

}  // namespace spindle::engine
