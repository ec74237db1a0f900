#pragma once
// The apan bus effect kind (EffectKind.h): an LFO of apan_waveform (lfoN_wave's waves,
// engine/mod/Wave.h; phase 0 at start) at apan_freq moves each channel's gain, the right
// channel's wave apan_phase degrees ahead of the left's: g = 1 - depth/100 * wave; the
// output is dry/100 * x + wet/100 * g * x. At the default 180 degrees the sides move in
// opposite directions (a triangle at depth 100: each side between silence and +6 dB,
// +1.25 dB on average, as sfizz's apan). Depth, dry and wet ramp across the control
// step; the frequency and the phase offset hold for it.
#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/effects/EffectKind.h"

namespace spindle::engine {

class AutoPan : public EffectKindBase {
 public:
  void start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME {
    rate_ = sampleRate;
    phase_ = 0.0;
  }
  void process(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;

 private:
  double rate_ = 48000.0;
  double phase_ = 0.0;  // the left wave's phase, turns in [0, 1)
};

}  // namespace spindle::engine
