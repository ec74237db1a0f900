#pragma once
// BusPhaser: the SFZ bus `phaser` effect: a chain of first-order all-pass stages whose
// break frequency an LFO sweeps, mixed with the dry signal so notches move.
//
//   x --+--> (+) --> [AP f(t)] x phaser_stages --+--> y = (1 - w/2) x + (w/2) ap
//       |     ^ feedback% x ap                    |     (w = phaser_wet/100)
//       |     +-----------------------------------+
//
// f(t) = 1 kHz * 2^(2 * depth/100 * wave(t)), wave the LFO of phaser_waveform (lfoN_wave's
// waves, -1..1 for the bipolar ones) at phaser_freq Hz: at depth 100 the stages'
// break frequency sweeps 250 Hz..4 kHz. At wet 100 the all-pass output cancels the dry
// signal wherever the chain turns the phase by 180 degrees (with 4 stages at
// 0.414 f(t) and 2.414 f(t)). The right channel's LFO runs phaser_phase % of a cycle
// ahead of the left's. phaser_stages is 1..kMaxStages.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"

namespace spindle::engine {

class BusPhaser {
 public:
  using Params = std::array<float, kBusParams>;
  static constexpr int kMaxStages = 12;
  static constexpr double kCentreHz = 1000.0, kOctaves = 2.0;
  static constexpr float kMaxFeedback = 0.95f;

  void start(double sampleRate) noexcept SPINDLE_REALTIME;
  void process(const BusEffect& effect, const Params& p, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  // The break frequency of the stages at LFO value `wave` (-1..1) and depth %.
  static double breakHz(double wave, double depthPercent) noexcept SPINDLE_REALTIME;
  // Frames its feedback loop takes to die below -120 dB (the tail's length).
  int memoryFrames() const noexcept SPINDLE_REALTIME { return static_cast<int>(0.05 * rate_); }

 private:
  struct Channel {
    std::array<float, kMaxStages> state{};
    float last = 0.0f;  // the chain's previous output, for the feedback
  };
  float run(Channel& c, float x, float coefficient, int stages, float feedback) noexcept SPINDLE_REALTIME;

  std::array<Channel, 2> channels_{};
  double rate_ = 48000.0;
  double phase_ = 0.0;  // the left LFO's phase, turns in [0, 1)
};

}  // namespace spindle::engine
