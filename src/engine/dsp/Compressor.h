#pragma once
// Compressor: the SFZ comp effect on a stereo pair. Audio thread only.
//
//   x --x gain--+------------------------------------------> x * 10^(r / 20) --> out
//               +--> |x| --> level follower --> r (dB)
//
// The input first takes comp_gain (dB). The level follower moves toward |x| with a
// one-pole of comp_attack seconds while |x| is above it and of comp_release seconds
// while below. The gain reduction in dB is
//   r = (1/ratio - 1) * max(0, 20 log10(level) - threshold),
// smoothed by a one-pole of comp_attack / 2 seconds; a level `t` dB over the threshold
// comes out t / ratio dB over it (a steady 0.5, -6.02 dB, at threshold -20 and ratio 4:
// reduced by 10.49 dB, so -16.51 dB). Unlinked, each side follows its own level; with
// comp_stlink both take the reduction of |left| + |right|. The ranges are sfizz's:
// ratio 1..50, threshold -100..0 dB, attack and release 0..10 s, gain -100..100 dB.
// It runs at twice the rate (Oversampled2x), as sfizz's does, so the follower sees the
// peaks between frames.
#include <array>

#include "core/Realtime.h"
#include "engine/dsp/HalfBand.h"

namespace spindle::engine::dsp {

struct CompressorSettings {
  float attack = 0.005f, release = 0.05f;  // seconds
  float ratio = 1.0f;
  float thresholdDb = 0.0f, gainDb = 0.0f;
  bool linked = false;
};

class Compressor {
 public:
  void setup(double sampleRate) noexcept SPINDLE_REALTIME;  // also clears
  void process(float* left, float* right, int frames, const CompressorSettings& s) noexcept SPINDLE_REALTIME;

  // The steady gain reduction (dB, <= 0) for a level held at `levelDb`.
  static float reductionDb(float levelDb, const CompressorSettings& s) noexcept SPINDLE_REALTIME;

 private:
  struct Side {
    float level = 0.0f;      // the follower, linear
    float reduction = 0.0f;  // dB
  };
  float gainFor(Side& side, float detected, const CompressorSettings& s) noexcept SPINDLE_REALTIME;

  std::array<Side, 2> sides_{};
  Oversampled2x oversampled_;
  double sampleRate_ = 96000.0;  // twice the bus's
  float attackPole_ = 0.0f, releasePole_ = 0.0f, smoothPole_ = 0.0f;
};

// A one-pole's coefficient for a time constant (0 for none: it follows at once).
float onePole(double seconds, double sampleRate) noexcept SPINDLE_REALTIME;

}  // namespace spindle::engine::dsp
