#pragma once
// Lofi: bit reduction then decimation of a stereo pair (the SFZ lofi effect's bitred
// and decim, 0..100 each, 0 passing the signal through). Audio thread only.
//
//   bitred  rounds each frame to the nearest multiple of a step: 1 / steps with
//           steps = 0.75 * (101 - bitred), so bitred 100 leaves 0.75 steps per unit
//           (|x| < 0.67 rounds to 0) and bitred 1 a step of 1/75.
//   decim   holds a frame for `heldFrames` frames: the held value is renewed when a
//           phase, advancing 1 / heldFrames per frame, passes 1. heldFrames grows
//           exponentially with decim: c * (1.289079^(0.1384141 * decim) - 1) seconds,
//           c = 1.313298e-4 s (sfizz's mapping: decim 50 holds 0.63 ms, 30 frames at
//           48 kHz, a 1.6 kHz rate; decim 100 holds 4.3 ms, a 234 Hz rate); a hold
//           shorter than a frame renews every frame.
// Each stepped signal (the rounded one, then the held one) is smoothed as a 2x
// oversampled step is, as sfizz's two stages are: each new value enters through its
// midpoint (at twice the rate: the midpoint of the old and new values, then the new
// one) and a half-band low-pass (HalfBand.h's) brings the 2x signal back down, kDelay
// frames late. On white noise that is a gentle low-pass, (1 + cos(w/2))/2: -1.59 dB
// and the centroid x0.80, what sfizz's lofi does to it at any bitred. A stage at 0 is
// skipped (no smoothing, no delay).
#include <array>

#include "core/Realtime.h"
#include "engine/dsp/HalfBand.h"

namespace spindle::engine::dsp {

class Lofi {
 public:
  static constexpr int kDelay = kHalfBandTaps;  // frames each smoothing stage delays the signal

  void setup(double sampleRate) noexcept SPINDLE_REALTIME;  // also clears
  void process(float* left, float* right, int frames, float bitred, float decim) noexcept SPINDLE_REALTIME;

  // The rounding step for a bitred value (0 for none).
  static float bitStep(float bitred) noexcept SPINDLE_REALTIME;
  // Frames each decimated value is held for (at least 1: every frame renewed).
  static double heldFrames(float decim, double sampleRate) noexcept SPINDLE_REALTIME;

 private:
  static constexpr int kHistory = 2 * kHalfBandTaps + 1;  // stepped values kept per channel
  struct Channel {
    float held = 0.0f;        // decim's held value
    History<kHistory> rounded;  // bitred's last values
    History<kHistory> holds;    // decim's last values
  };
  float smooth(History<kHistory>& steps, float x) const noexcept SPINDLE_REALTIME;
  float crush(Channel& c, float x, float step, bool decimating, bool renew) const noexcept SPINDLE_REALTIME;

  HalfBandTaps taps_{};
  std::array<Channel, 2> channels_{};
  double sampleRate_ = 48000.0;
  double phase_ = 0.0;
};

}  // namespace spindle::engine::dsp
