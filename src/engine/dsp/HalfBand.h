#pragma once
// HalfBand: 2x up- and down-sampling through a linear-phase half-band low-pass, for
// processors that run part of their work at a higher rate. Audio thread only
// (halfBandTaps() may run on any thread).
//
// The filter is a 129-tap Blackman-windowed sinc at the higher rate: its centre tap is
// 1/2, its other even taps 0, its odd taps t_j at distances 2j+1 (j = 0..31) add to 1/2,
// so the DC gain is 1. Up and down together delay the signal by 2 kHalfBandTaps - 1
// frames of the lower rate (63).
//
//   up:    x[n] --> (x[n - kHalfBandTaps], the midpoint interpolated after it)
//   down:  (even, odd) pairs --> one frame: even / 2 + sum of t_j times the odd frames
//          2j+1 either side of it
#include <array>
#include <cstddef>

#include "core/Realtime.h"

namespace spindle::engine::dsp {

inline constexpr int kHalfBandTaps = 32;
using HalfBandTaps = std::array<float, kHalfBandTaps>;

// The odd taps t_0..t_31, nearest the centre first.
HalfBandTaps halfBandTaps() noexcept SPINDLE_REALTIME;

// A window of the last kSize values, oldest first, stored twice so it reads contiguous.
template <int kSize>
class History {
 public:
  void push(float x) noexcept SPINDLE_REALTIME {
    at_ = at_ + 1 == kSize ? 0 : at_ + 1;
    buffer_[static_cast<std::size_t>(at_)] = buffer_[static_cast<std::size_t>(at_ + kSize)] = x;
  }
  // Value i of the window, 0 the oldest, kSize - 1 the newest.
  float operator[](int i) const noexcept SPINDLE_REALTIME { return buffer_[static_cast<std::size_t>(at_ + 1 + i)]; }

 private:
  std::array<float, 2 * kSize> buffer_{};
  int at_ = 0;
};

class HalfBandUp {
 public:
  // Takes one frame, gives the two frames of the higher rate.
  void process(const HalfBandTaps& taps, float x, float& first, float& second) noexcept SPINDLE_REALTIME;

 private:
  History<2 * kHalfBandTaps> in_;
};

class HalfBandDown {
 public:
  // Takes two frames of the higher rate, gives one frame.
  float process(const HalfBandTaps& taps, float first, float second) noexcept SPINDLE_REALTIME;

 private:
  History<2 * kHalfBandTaps> even_, odd_;
};

// A stereo pair run at twice the rate: each frame is brought up to two, `perFrame(l, r)`
// runs on each of them in place, and the pair comes back down (2 kTaps - 1 frames late).
class Oversampled2x {
 public:
  void setup() noexcept SPINDLE_REALTIME {
    taps_ = halfBandTaps();
    up_ = {};
    down_ = {};
  }
  template <typename PerFrame>
  void process(float* left, float* right, int frames, PerFrame&& perFrame) noexcept SPINDLE_REALTIME {
    for (int i = 0; i < frames; ++i) {
      std::array<float, 2> l{}, r{};
      up_[0].process(taps_, left[i], l[0], l[1]);
      up_[1].process(taps_, right[i], r[0], r[1]);
      perFrame(l[0], r[0]);
      perFrame(l[1], r[1]);
      left[i] = down_[0].process(taps_, l[0], l[1]);
      right[i] = down_[1].process(taps_, r[0], r[1]);
    }
  }

 private:
  HalfBandTaps taps_{};
  std::array<HalfBandUp, 2> up_{};
  std::array<HalfBandDown, 2> down_{};
};

}  // namespace spindle::engine::dsp
