#pragma once
// Phaser: Spindle's one phaser, the SFZ bus `phaser` and DecentSampler's `phaser`: a
// chain of first-order all-pass stages whose break frequency an LFO sweeps, with
// feedback, mixed with the dry signal so that notches move.
//
//   x --+--> (+) --> [AP f(t)] x stages --+--> y = (1 - m) x + m ap
//       |     ^ feedback x ap              |
//       |     +----------------------------+
//
//   f(t) = centre * 2^(octaves * wave(t)), wave an LFO of engine/mod/Wave.h
//
// Where the chain turns the phase by 180 degrees, the all-pass output cancels the dry
// signal at m = 0.5 (with 4 stages at 0.414 f(t) and 2.414 f(t)).
//
//   SFZ (phaser_*): centre 1 kHz, octaves 2 x phaser_depth/100 (at depth 100 the break
//   frequency sweeps 250 Hz..4 kHz), the wave phaser_waveform (lfoN_wave's waves, -1..1
//   for the bipolar ones) at phaser_freq Hz, the right channel's LFO phaser_phase % of a
//   cycle ahead of the left's, 1..kMaxStages stages, feedback phaser_feedback % up to
//   kMaxFeedback, m = phaser_wet/200.
//   DecentSampler: centre centerFrequency, octaves 2 x modDepth, a sine at modRate on
//   both channels, 6 stages, feedback -1..1 (held within +-kMaxFeedback), m = mix.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/effects/EffectKind.h"

namespace spindle::engine {

class Phaser : public EffectKindBase {
 public:
  static constexpr int kMaxStages = 12, kDecentStages = 6;
  static constexpr double kCentreHz = 1000.0, kOctaves = 2.0;
  static constexpr float kMaxFeedback = 0.95f;

  void start(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME;
  void process(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  // Frames its feedback loop takes to die below -120 dB (the tail's length).
  int memoryFrames() const noexcept SPINDLE_REALTIME { return static_cast<int>(0.05 * rate_); }

 private:
  struct Sweep {
    double centreHz = kCentreHz, octaves = 0.0, turns = 0.0, offset = 0.0;  // turns: per frame
    int wave = 1, stages = 4;
    float feedback = 0.0f, mix = 0.5f;
  };
  struct Channel {
    std::array<float, kMaxStages> state{};
    float last = 0.0f;  // the chain's previous output, for the feedback
  };
  Sweep sweep(const BusEffect& effect, const EffectStep& step) const noexcept SPINDLE_REALTIME;
  float coefficient(const Sweep& s, double phase) const noexcept SPINDLE_REALTIME;
  static float run(Channel& c, float x, float coefficient, int stages, float feedback) noexcept SPINDLE_REALTIME;

  std::array<Channel, 2> channels_{};
  double rate_ = 48000.0;
  double phase_ = 0.0;  // the left LFO's phase, turns in [0, 1)
};

}  // namespace spindle::engine
