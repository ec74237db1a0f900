#pragma once
// Disto: the SFZ disto effect, a chain of 1..4 hysteretic sigmoid stages after a tone
// low-pass, mixed with the bus. Audio thread only.
//
//   bus x --x dry --> tone low-pass --> stage 1 .. stage N --> d
//   out = wet * d + (1 - wet) * x           (dry, wet: disto_dry, disto_wet / 100)
//
// This is how sfizz plays the opcodes the reference leaves undescribed: disto_dry is
// the level into the distortion (so at its default 0 the effect passes the bus
// through), disto_wet the mix of the distorted signal against the bus.
//
//   tone    a one-pole low-pass at the note 21 + 1.08 * disto_tone (100: 14.1 kHz,
//           50: 622 Hz).
//   stage   s(v) = 1 / (1 + e^-v) at a = 2 + depth / 5: while the input last rose
//           above 0.25 the stage gives 2 s(a x), after it last fell below -0.25 it
//           gives 2 (s(a x) - 1) (the two curves, 2 apart, are crossfaded over 10 ms),
//           then a DC blocker at 40 Hz takes out the offset.
// The stages run at 4x the rate (linear-phase half-band filters up and down, the same
// as Lofi's), so the harmonics they add fold back no more than the ones sfizz's 8x
// oversampling lets through.
#include <array>

#include "core/Realtime.h"
#include "engine/dsp/HalfBand.h"
#include "engine/dsp/StepRamp.h"

namespace spindle::engine::dsp {

class Disto {
 public:
  static constexpr int kMaxStages = 4;
  static constexpr int kOversampling = 4;

  void setup(double sampleRate) noexcept SPINDLE_REALTIME;  // also clears
  // tone, depth: 0..100; dry, wet: 0..1, moved linearly from `From` to `To` across the
  // control step `ramp` places these frames in (StepRamp.h; by default the step is these
  // frames); stages: 1..4.
  void process(float* left, float* right, int frames, float tone, float depth, int stages, float dryFrom,
               float dryTo, float wetFrom, float wetTo, StepRamp ramp = {}) noexcept SPINDLE_REALTIME;

  // The tone low-pass's cutoff in Hz.
  static float toneCutoff(float tone) noexcept SPINDLE_REALTIME;
  // One stage's static curve for a rising (`falling` false) or falling input.
  static float curve(float x, float depth, bool falling) noexcept SPINDLE_REALTIME;

 private:
  struct Stage {
    float previous = 0.0f;  // the last input
    float falling = 0.0f;   // 1 after the input fell below -0.25, 0 after it rose above 0.25
    float blend = 0.0f;     // `falling`, smoothed
    float dcIn = 0.0f, dcOut = 0.0f;
  };
  struct Channel {
    float tone = 0.0f;
    std::array<Stage, kMaxStages> stages{};
    HalfBandUp up1, up2;  // 1x -> 2x -> 4x
    HalfBandDown down2, down1;   // 4x -> 2x -> 1x
  };
  float runStages(Channel& c, float x, float depth, int stages) noexcept SPINDLE_REALTIME;
  float distort(Channel& c, float x, float depth, int stages) noexcept SPINDLE_REALTIME;

  std::array<Channel, 2> channels_{};
  double sampleRate_ = 48000.0;
  HalfBandTaps taps_{};
  float blendPole_ = 0.0f, dcGain_ = 1.0f, dcPole_ = 0.0f;
};

}  // namespace spindle::engine::dsp
