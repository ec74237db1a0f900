#pragma once
// Per-voice 3-band EQ (SFZ eq1_*..eq3_*). Audio thread only.
//
// Each band is one trapezoidal state-variable section (FilterDesign.h, run by
// SvfRun.h, like the per-voice filter), so its frequency, bandwidth and gain may be
// re-set every control block, even jumping by octaves, without steps or instability.
// A = 10^(gain/40), G = gain in dB, s normalised to the band's frequency, and the
// bilinear transform prewarped there, so the response at `freq` is exactly the
// prototype's:
//   peak    (s^2 + s*A/Q + 1) / (s^2 + s/(A*Q) + 1): G at freq, 0 dB far away, G/2
//           (in dB) at the band edges, bw octaves apart (RBJ peakingEQ).
//   lshelf  A * (s^2 + s*sqrt(A)/Q + A) / (A*s^2 + s*sqrt(A)/Q + 1): G far below freq,
//           G/2 at freq, 0 dB far above (RBJ lowShelf).
//   hshelf  A * (A*s^2 + s*sqrt(A)/Q + 1) / (s^2 + s*sqrt(A)/Q + A): G far above,
//           G/2 at freq, 0 dB far below (RBJ highShelf).
// Q from bw, the cookbook's digital bandwidth (w0 = 2*pi*freq/sampleRate):
//   1/Q = 2 * sinh(ln(2)/2 * bw * w0/sin(w0))
// (the transfer function the earlier biquad peaking bands had). A shelf uses the same
// Q but at most 1/sqrt(2), the cookbook's slope S = 1, the steepest shelf without
// overshoot: bw below about 1.9 octaves (the default 1 included) all give that shelf,
// wider bw a gentler one. The cap is there because a shelf's resonance grows with Q:
// uncapped, a +24 dB low shelf at bw = 1 (Q = 1.41) would reach +27.3 dB below freq
// and -3.3 dB above it, and at bw = 0.001 (Q = 1443) +86.6 dB.
//
// freq is clamped to [10 Hz, 0.45 * sampleRate] (NaN -> 1 kHz), bw to [0.001, 4]
// octaves (NaN -> 1), gain to [-96, 24] dB (NaN -> 0). A band is skipped until it first
// has a gain other than 0 dB; from then on it runs (at 0 dB every type passes audio
// through unchanged), so a gain modulated through 0 dB neither freezes nor resets it.
#include <array>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/dsp/FilterDesign.h"
#include "engine/dsp/SvfRun.h"

namespace spindle::engine::dsp {

class Eq {
 public:
  static constexpr int kBands = 3;

  // All bands off and peaking, state cleared.
  void setup(double sampleRate) noexcept SPINDLE_REALTIME;
  // The band's type, applied by its next setBand().
  void setType(int band, EqType type) noexcept SPINDLE_REALTIME;
  // Recomputes one band's coefficients (a few libm calls); state is kept.
  void setBand(int band, float freqHz, float bwOctaves, float gainDb) noexcept SPINDLE_REALTIME;
  bool active() const noexcept { return on_[0] || on_[1] || on_[2]; }
  void process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;  // in place
  void processMono(float* io, int frames) noexcept SPINDLE_REALTIME;

  // Q of a band bw octaves wide at w0 (above); shelves take min(Q, kMaxShelfQ).
  static double bandwidthToQ(double bwOctaves, double w0) noexcept SPINDLE_REALTIME;
  static constexpr double kMaxShelfQ = 0.70710678118654752;

 private:
  double sampleRate_ = 48000.0;
  std::array<SvfCoeffs, kBands> coefs_{};
  std::array<EqType, kBands> types_{};
  std::array<bool, kBands> on_{};
  std::array<SvfState, kBands> left_{}, right_{};
};

}  // namespace spindle::engine::dsp
