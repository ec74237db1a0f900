#include "engine/effects/Simple.h"

#include <algorithm>
#include <cmath>

#include "engine/dsp/Shaper.h"

namespace spindle::engine {

void GainEffect::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const float a = std::pow(10.0f, busParam(step.from, BusParam::Gain) * 0.05f);
  const float b = std::pow(10.0f, step.at(BusParam::Gain) * 0.05f);
  for (int i = 0; i < frames; ++i) {
    const float g = step.ramp.at(a, b, i);
    left[i] *= g;
    right[i] *= g;
  }
}

void RectifyEffect::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const float a = std::clamp(busParam(step.from, BusParam::Rectify), 0.0f, 100.0f) * 0.01f;
  const float b = std::clamp(step.at(BusParam::Rectify), 0.0f, 100.0f) * 0.01f;
  for (int i = 0; i < frames; ++i) {
    const float k = step.ramp.at(a, b, i);
    left[i] += k * (std::max(left[i], 0.0f) - left[i]);
    right[i] += k * (std::max(right[i], 0.0f) - right[i]);
  }
}

void WidthEffect::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  constexpr float kQuarterPi = 0.785398163397448f;
  const float a = (1.0f - std::clamp(busParam(step.from, BusParam::Width), -100.0f, 100.0f) * 0.01f) * kQuarterPi;
  const float b = (1.0f - std::clamp(step.at(BusParam::Width), -100.0f, 100.0f) * 0.01f) * kQuarterPi;
  for (int i = 0; i < frames; ++i) {
    const float theta = step.ramp.at(a, b, i);
    const float c = std::cos(theta), s = std::sin(theta);
    const float l = left[i], r = right[i];
    left[i] = c * l + s * r;
    right[i] = s * l + c * r;
  }
}

void ShaperEffect::process(const BusEffect& effect, const EffectStep& step, float* left, float* right,
                           int frames) noexcept SPINDLE_REALTIME {
  ShaperStage stage;
  stage.type = effect.type == BusEffectType::WaveFolder ? ShaperType::Folder : ShaperType::Shaper;
  stage.drive = step.at(BusParam::Drive);
  stage.threshold = step.at(BusParam::Threshold);
  stage.driveBoost = step.at(BusParam::DriveBoost);
  stage.outputLevel = step.at(BusParam::OutputLevel);
  dsp::applyShaper(stage, left, frames);
  dsp::applyShaper(stage, right, frames);
}

}  // namespace spindle::engine
