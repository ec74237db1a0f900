#pragma once
// The bus effect kinds without memory, run in place on a stereo pair (EffectKind.h).
//
//   gain         l, r times 10^(dB/20), ramped across the control step.
//   rectify      x + a (max(x, 0) - x), a = rectify / 100 ramped: 0 passes through, 1
//                keeps the positive half-waves only (half-wave rectification: -3.01 dB on
//                a signal symmetric about 0, plus the DC and the harmonics it adds).
//   width        the equal-power stereo width: l' = c l + s r, r' = s l + c r with
//                theta = (1 - width/100) pi/4 ramped, c = cos(theta), s = sin(theta).
//                100 passes through, 0 sums to mono at equal power (a centred signal rises
//                by 3.01 dB, as two equal channels summed with gain 1/sqrt(2) do), -100
//                swaps the sides.
//   wave_folder, wave_shaper (DecentSampler's): the curves of engine/dsp/Shaper.h on both
//                channels (drive, threshold, driveBoost, outputLevel), at the engine's
//                rate (highQuality's oversampling is not played); the same curves as a
//                voice's own shaper stages.
#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/effects/EffectKind.h"

namespace spindle::engine {

struct GainEffect : EffectKindBase {
  void start(const BusEffect&, double) noexcept SPINDLE_REALTIME {}
  void process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
};

struct RectifyEffect : EffectKindBase {
  void start(const BusEffect&, double) noexcept SPINDLE_REALTIME {}
  void process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
};

struct WidthEffect : EffectKindBase {
  void start(const BusEffect&, double) noexcept SPINDLE_REALTIME {}
  void process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
};

struct ShaperEffect : EffectKindBase {
  void start(const BusEffect&, double) noexcept SPINDLE_REALTIME {}
  void process(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
};

}  // namespace spindle::engine
