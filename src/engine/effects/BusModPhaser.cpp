#include "engine/effects/BusModPhaser.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/effects/BusMemory.h"

namespace spindle::engine {

void BusModPhaser::start(double sampleRate) noexcept SPINDLE_REALTIME {
  channels_ = {};
  rate_ = sampleRate;
  phase_ = 0.0;
}

float BusModPhaser::run(Channel& c, float x, float coefficient, float feedback) noexcept SPINDLE_REALTIME {
  float v = x + feedback * c.last;
  for (float& s : c.state) {
    const float y = coefficient * v + s;
    s = v - coefficient * y;
    v = y;
  }
  c.last = v;
  return v;
}

void BusModPhaser::process(const Params& p, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const double step = std::max(0.0, static_cast<double>(busParam(p, BusParam::ModRate))) / rate_;
  const double depth = std::clamp(static_cast<double>(busParam(p, BusParam::ModDepth)), 0.0, 1.0);
  const double centre = std::max(10.0, static_cast<double>(busParam(p, BusParam::CentreFreq)));
  const float feedback = std::clamp(busParam(p, BusParam::ModFeedback), -kMaxFeedback, kMaxFeedback);
  const float mix = std::clamp(busParam(p, BusParam::Mix), 0.0f, 1.0f);
  for (int i = 0; i < frames; ++i) {
    const double hz = centre * std::exp2(kOctaves * depth * std::sin(2.0 * std::numbers::pi * phase_));
    const double t = std::tan(std::numbers::pi * std::clamp(hz, 10.0, 0.45 * rate_) / rate_);
    const auto a = static_cast<float>((t - 1.0) / (t + 1.0));
    left[i] = (1.0f - mix) * left[i] + mix * run(channels_[0], left[i], a, feedback);
    right[i] = (1.0f - mix) * right[i] + mix * run(channels_[1], right[i], a, feedback);
    phase_ += step;
    phase_ -= std::floor(phase_);
  }
}

}  // namespace spindle::engine
