#pragma once
// BusShaper: DecentSampler's `wave_folder` and `wave_shaper` bus effects: the curves of
// engine/dsp/Shaper.h (drive, threshold, driveBoost, outputLevel from the bus
// parameters) on both channels, at the engine's rate (highQuality's oversampling is
// not played).
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"

namespace spindle::engine {

struct BusShaper {
  using Params = std::array<float, kBusParams>;
  static void process(BusEffectType type, const Params& p, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
};

}  // namespace spindle::engine
