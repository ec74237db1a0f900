#include "engine/dsp/Gate.h"

#include <algorithm>
#include <cmath>

#include "engine/dsp/Compressor.h"

namespace spindle::engine::dsp {

void Gate::setup(double sampleRate) noexcept SPINDLE_REALTIME {
  sampleRate_ = 2.0 * sampleRate;
  sides_ = {};
  oversampled_.setup();
}

float Gate::gainFor(Side& side, float detected, float threshold, float open) noexcept SPINDLE_REALTIME {
  side.level = followPole_ * side.level + (1.0f - followPole_) * detected;
  const float target = side.level > threshold ? open : 0.0f;
  const float pole = side.gain > target ? releasePole_ : attackPole_;
  side.gain = pole * side.gain + (1.0f - pole) * target;
  return side.gain;
}

void Gate::process(float* left, float* right, int frames, const GateSettings& s) noexcept SPINDLE_REALTIME {
  const double attack = std::clamp(static_cast<double>(s.attack), 0.0, 10.0);
  const double release = std::clamp(static_cast<double>(s.release), 0.0, 10.0);
  followPole_ = onePole(std::min(attack, release), sampleRate_);
  attackPole_ = onePole(attack, sampleRate_);
  releasePole_ = onePole(release, sampleRate_);
  const float threshold = std::pow(10.0f, 0.05f * std::clamp(s.thresholdDb, -100.0f, 0.0f));
  const float open = 1.0f - 0.01f * std::clamp(s.manual, 0.0f, 100.0f);
  oversampled_.process(left, right, frames, [&](float& l, float& r) {
    if (s.linked) {
      const float g = gainFor(sides_[0], std::fabs(l) + std::fabs(r), threshold, open);
      l *= g;
      r *= g;
    } else {
      l *= gainFor(sides_[0], std::fabs(l), threshold, open);
      r *= gainFor(sides_[1], std::fabs(r), threshold, open);
    }
  });
}

}  // namespace spindle::engine::dsp
