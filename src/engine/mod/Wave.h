#pragma once
// Wave: every LFO waveform Spindle plays, in one place. The SFZ v2 LFOs (LfoBank),
// DecentSampler's part-wide LFOs (BusModulation), the bus effects' sweeps (apan, the
// phasers) read wave(); what needs a sine frame after frame at a steady rate (the SFZ v1
// LFOs, the choruses' sweeps) turns a SinePhasor, the same sine without a libm call per
// frame.
//
// wave(shape, phase), phase in turns [0, 1), by lfoN_wave's numbers (the SFZ reference):
//   0 triangle   0 at phase 0, 1 at 1/4, -1 at 3/4
//   1 sine       sin(2 pi phase)
//   2 pulse 75 % 1 for the first 3/4 of the cycle, else 0 (the pulses and the square
//   3 square     1 for the first half                        are unipolar, as in ARIA)
//   4 pulse 25 % 1 for the first quarter
//   5 pulse 12.5 %
//   6 saw up     -1 .. 1         7 saw down   1 .. -1
// and DecentSampler's, which run 0..1: kUpSine (0.5 + 0.5 sin), kUpSquare (1 for the
// first half), kUpSaw (the phase itself). Any other number plays the sine. Sample and
// hold (12) is not a wave of the phase: LfoBank holds its draws.
//
// A SinePhasor is a rotating unit vector: s = sin(2 pi phase) and c = cos(2 pi phase),
// one complex multiply a frame; every kNormalFrames of its own frames one Newton step
// pulls it back onto the unit circle, so its amplitude cannot drift over hours and its
// values never depend on where blocks end. Audio thread (both are real-time).
#include <cstdint>

#include "core/Realtime.h"

namespace spindle::engine::mod {

inline constexpr int kUpSine = 16, kUpSquare = 17, kUpSaw = 18;

float wave(int shape, double phase) noexcept SPINDLE_REALTIME;

class SinePhasor {
 public:
  static constexpr int kNormalFrames = 64;

  // Turns at `hz` (at least 0) at `sampleRate`: the rotation of one frame.
  void setFrequency(double hz, double sampleRate) noexcept SPINDLE_REALTIME;
  // Starts at `radians` (its sine and cosine), the normalising count from 0.
  void setAngle(double radians) noexcept SPINDLE_REALTIME;
  double angle() const noexcept SPINDLE_REALTIME;  // atan2(sin, cos)
  double sin() const noexcept { return s_; }
  double cos() const noexcept { return c_; }
  // One frame on.
  void next() noexcept SPINDLE_REALTIME {
    const double ns = s_ * rotCos_ + c_ * rotSin_;
    c_ = c_ * rotCos_ - s_ * rotSin_;
    s_ = ns;
    if (++sinceNormal_ == kNormalFrames) {
      const double g = 1.5 - 0.5 * (s_ * s_ + c_ * c_);
      s_ *= g;
      c_ *= g;
      sinceNormal_ = 0;
    }
  }

 private:
  double s_ = 0.0, c_ = 1.0;
  double rotCos_ = 1.0, rotSin_ = 0.0;
  int sinceNormal_ = 0;
};

}  // namespace spindle::engine::mod
