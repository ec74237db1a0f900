#include "engine/dsp/Compressor.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine::dsp {

float onePole(double seconds, double sampleRate) noexcept SPINDLE_REALTIME {
  return seconds > 1e-7 ? static_cast<float>(std::exp(-1.0 / (seconds * sampleRate))) : 0.0f;
}

void Compressor::setup(double sampleRate) noexcept SPINDLE_REALTIME {
  sampleRate_ = 2.0 * sampleRate;
  sides_ = {};
  oversampled_.setup();
}

float Compressor::reductionDb(float levelDb, const CompressorSettings& s) noexcept SPINDLE_REALTIME {
  const float ratio = std::clamp(s.ratio, 1.0f, 50.0f);
  const float threshold = std::clamp(s.thresholdDb, -100.0f, 0.0f);
  return (1.0f / ratio - 1.0f) * std::max(0.0f, levelDb - threshold);
}

// One frame of one side: the follower moves toward `detected`, the reduction toward
// what the follower's level asks for; the gain to apply.
float Compressor::gainFor(Side& side, float detected, const CompressorSettings& s) noexcept SPINDLE_REALTIME {
  const float pole = side.level > detected ? releasePole_ : attackPole_;
  side.level = pole * side.level + (1.0f - pole) * detected;
  const float target = reductionDb(20.0f * std::log10(std::max(side.level, 1e-9f)), s);
  side.reduction = smoothPole_ * side.reduction + (1.0f - smoothPole_) * target;
  return std::pow(10.0f, 0.05f * side.reduction);
}

void Compressor::process(float* left, float* right, int frames, const CompressorSettings& s) noexcept
    SPINDLE_REALTIME {
  const double attack = std::clamp(static_cast<double>(s.attack), 0.0, 10.0);
  attackPole_ = onePole(attack, sampleRate_);
  releasePole_ = onePole(std::clamp(static_cast<double>(s.release), 0.0, 10.0), sampleRate_);
  smoothPole_ = onePole(0.5 * attack, sampleRate_);
  const float input = std::pow(10.0f, 0.05f * std::clamp(s.gainDb, -100.0f, 100.0f));
  oversampled_.process(left, right, frames, [&](float& l, float& r) {
    l *= input;
    r *= input;
    if (s.linked) {
      const float g = gainFor(sides_[0], std::fabs(l) + std::fabs(r), s);
      l *= g;
      r *= g;
    } else {
      l *= gainFor(sides_[0], std::fabs(l), s);
      r *= gainFor(sides_[1], std::fabs(r), s);
    }
  });
}

}  // namespace spindle::engine::dsp
