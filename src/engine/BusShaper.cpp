#include "engine/BusShaper.h"

#include <algorithm>
#include <cmath>

#include "engine/BusMemory.h"

namespace spindle::engine {

float BusShaper::fold(float v, float threshold) noexcept SPINDLE_REALTIME {
  if (threshold <= 0.0f) return 0.0f;
  const float period = 4.0f * threshold;
  float u = std::fmod(v + threshold, period);
  if (u < 0.0f) u += period;
  return threshold - std::fabs(u - 2.0f * threshold);
}

void BusShaper::process(BusEffectType type, const Params& p, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const float drive = std::max(0.0f, busParam(p, BusParam::Drive));
  if (type == BusEffectType::WaveFolder) {
    const float threshold = std::max(0.0f, busParam(p, BusParam::Threshold));
    for (int i = 0; i < frames; ++i) {
      left[i] = fold(drive * left[i], threshold);
      right[i] = fold(drive * right[i], threshold);
    }
    return;
  }
  const float gain = drive * (1.0f + std::clamp(busParam(p, BusParam::DriveBoost), 0.0f, 1.0f));
  const float level = std::max(0.0f, busParam(p, BusParam::OutputLevel));
  for (int i = 0; i < frames; ++i) {
    left[i] = level * std::tanh(gain * left[i]);
    right[i] = level * std::tanh(gain * right[i]);
  }
}

}  // namespace spindle::engine
