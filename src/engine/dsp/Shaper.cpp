#include "engine/dsp/Shaper.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine::dsp {

float fold(float v, float threshold) noexcept SPINDLE_REALTIME {
  if (threshold <= 0.0f) return 0.0f;
  const float period = 4.0f * threshold;
  float u = std::fmod(v + threshold, period);
  if (u < 0.0f) u += period;
  return threshold - std::fabs(u - 2.0f * threshold);
}

void applyShaper(const ShaperStage& stage, float* x, int frames) noexcept SPINDLE_REALTIME {
  const float drive = std::max(0.0f, stage.drive);
  if (stage.type == ShaperType::Folder) {
    const float threshold = std::max(0.0f, stage.threshold);
    for (int i = 0; i < frames; ++i) x[i] = fold(drive * x[i], threshold);
    return;
  }
  const float gain = drive * (1.0f + std::clamp(stage.driveBoost, 0.0f, 1.0f));
  const float level = std::max(0.0f, stage.outputLevel);
  for (int i = 0; i < frames; ++i) x[i] = level * std::tanh(gain * x[i]);
}

}  // namespace spindle::engine::dsp
