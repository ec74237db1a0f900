#pragma once
// Limiter: the SFZ limiter effect, which has no parameters: each side is held to full
// scale (1.0). Audio thread only.
//
// A peak follower jumps to |x| and falls back with a 0.5 s one-pole; it is smoothed by
// a 0.8 ms one-pole, and the gain, 1 / peak while the peak is above 1 and 1 otherwise,
// by a 0.4 ms one. A steady sine of peak 2 comes out at peak 1 (-6.02 dB); one that
// never passes 1 comes out untouched. It runs at twice the rate (Oversampled2x), as
// sfizz's does, so it holds the peaks between frames to full scale too: on white noise
// those stand far above the frames' own (its output's RMS is about 1/3.3, not 1/1.7).
#include <array>

#include "core/Realtime.h"
#include "engine/dsp/HalfBand.h"

namespace spindle::engine::dsp {

class Limiter {
 public:
  void setup(double sampleRate) noexcept SPINDLE_REALTIME;  // also clears
  void process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;

 private:
  struct Side {
    float peak = 0.0f, smoothed = 0.0f, gain = 1.0f;
  };
  float gainFor(Side& side, float x) const noexcept SPINDLE_REALTIME;

  std::array<Side, 2> sides_{};
  Oversampled2x oversampled_;
  float fallPole_ = 0.0f, peakPole_ = 0.0f, gainPole_ = 0.0f;
};

}  // namespace spindle::engine::dsp
