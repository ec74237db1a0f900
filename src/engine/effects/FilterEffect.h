#pragma once
// The eq and filter bus effect kinds (EffectKind.h), both through dsp::Filter, the
// filter a voice's fil_type runs. Coefficients follow the parameters at each control
// step where they move.
//
// eq: its peq, lsh or hsh type with Q from eq_bw by the cookbook's digital bandwidth
// (dsp::Eq::bandwidthToQ), the shelves' Q not capped as the per-voice EQ caps it:
// sfizz's bus shelves have that overshoot (an hshelf of -12 dB at 4 kHz, bw 1, on white
// noise: -6.25 dB, centroid x0.36). filter: Q = 10^(filter_resonance/20), so resonance 0
// is Q 1, not the per-voice filter's 1/sqrt(2) (sfizz's bus lpf_2p at 1 kHz, resonance
// 0, on white noise: -11.87 dB).
#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/dsp/Filter.h"
#include "engine/effects/EffectKind.h"

namespace spindle::engine {

class FilterEffect : public EffectKindBase {
 public:
  void start(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME;
  void configure(const BusEffect& effect, const BusParams& p) noexcept SPINDLE_REALTIME;
  void process(const BusEffect&, const EffectStep&, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME {
    filter_.process(left, right, frames);
  }
  // Its ringing after the input stops, for the bus's tail: a resonant filter rings on.
  int memoryFrames() const noexcept SPINDLE_REALTIME { return static_cast<int>(0.05 * rate_); }

 private:
  // dsp::Filter's resonance is 20 log10(Q sqrt(2)); filter_resonance is 20 log10(Q).
  static constexpr float kResonanceOffsetDb = 3.0103f;

  dsp::Filter filter_;
  double rate_ = 48000.0;
};

}  // namespace spindle::engine
