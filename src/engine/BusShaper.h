#pragma once
// BusShaper: DecentSampler's `wave_folder` and `wave_shaper` bus effects, stateless
// curves applied to each frame (Spindle's own; the guide gives only their parameters).
//
//   wave_folder:  v = drive * x, folded back at +-threshold as a triangle wave of
//                 period 4 threshold: y = threshold - |((v + threshold) mod 4 threshold)
//                 - 2 threshold|, so |y| <= threshold and y = v while |v| <= threshold.
//   wave_shaper:  y = outputLevel * tanh(drive * (1 + driveBoost) * x), at the engine's
//                 rate (highQuality's oversampling is not played).
//
// Both add odd harmonics of a sine that grow with the drive.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"

namespace spindle::engine {

struct BusShaper {
  using Params = std::array<float, kBusParams>;
  static float fold(float v, float threshold) noexcept SPINDLE_REALTIME;
  static void process(BusEffectType type, const Params& p, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
};

}  // namespace spindle::engine
