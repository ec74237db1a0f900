#pragma once
// Coefficient design for the per-voice filter (Filter.h): biquads and the trapezoidal
// state-variable filter. Pure functions of the normalised cutoff, no state. Audio thread.
//
// Every design is the bilinear transform of an analog prototype H(s), prewarped so
// that s = j is the cutoff: the digital response at frequency w equals
// H(j * tan(w/2) / tan(w0/2)). Prototypes (w normalised to the cutoff, A = 10^(gain/40)):
//   lowPass    1 / (s^2 + s/Q + 1)                 |H(j)| = Q
//   highPass   s^2 / (s^2 + s/Q + 1)               |H(j)| = Q
//   bandPass   (s/Q) / (s^2 + s/Q + 1)             |H(j)| = 1 (0 dB peak)
//   notch      (s^2 + 1) / (s^2 + s/Q + 1)         |H(j)| = 0
//   peaking    (s^2 + s*A/Q + 1) / (s^2 + s/(A*Q) + 1)        |H(j)| = A^2 (= gain)
//   lowShelf   A * (s^2 + s*sqrt(A)/Q + A) / (A*s^2 + s*sqrt(A)/Q + 1)   |H(j)| = A
//   highShelf  A * (A*s^2 + s*sqrt(A)/Q + 1) / (s^2 + s*sqrt(A)/Q + A)   |H(j)| = A
//   onePoleLow 1 / (s + 1),  onePoleHigh s / (s + 1)  |H(j)| = 1/sqrt(2)
//   allPass1   (1 - s) / (1 + s)                      |H| = 1 everywhere
// The biquad forms are those of R. Bristow-Johnson's "Audio EQ Cookbook".
#include "core/Realtime.h"

namespace spindle::engine::dsp {

// y = b0*x + b1*x[-1] + b2*x[-2] - a1*y[-1] - a2*y[-2]   (a0 normalised to 1)
struct BiquadCoeffs {
  double b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0;
};

// w0 = 2*pi*cutoff/sampleRate in (0, pi); q > 0.
BiquadCoeffs lowPass(double w0, double q) noexcept SPINDLE_REALTIME;
BiquadCoeffs highPass(double w0, double q) noexcept SPINDLE_REALTIME;
BiquadCoeffs bandPass(double w0, double q) noexcept SPINDLE_REALTIME;
BiquadCoeffs notch(double w0, double q) noexcept SPINDLE_REALTIME;
BiquadCoeffs peaking(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME;
BiquadCoeffs lowShelf(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME;
BiquadCoeffs highShelf(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME;
BiquadCoeffs onePoleLow(double w0) noexcept SPINDLE_REALTIME;
BiquadCoeffs onePoleHigh(double w0) noexcept SPINDLE_REALTIME;
BiquadCoeffs allPass1(double w0) noexcept SPINDLE_REALTIME;

// Trapezoidal ("zero-delay feedback") state-variable filter, after A. Simper's
// derivation: g = tan(w0/2), k = 1/Q; per frame, with states ic1, ic2,
//   v3 = x - ic2;  v1 = a1*ic1 + a2*v3;  v2 = ic2 + a2*ic1 + a3*v3
//   ic1 = 2*v1 - ic1;  ic2 = 2*v2 - ic2
//   y = m0*x + m1*v1 + m2*v2
// v2 is the low-pass output, k*v1 the band-pass (0 dB peak), x - k*v1 - v2 the
// high-pass. The states are the integrators' outputs, not a mix that depends on the
// coefficients, so a new cutoff changes the output's slope, never its value.
struct SvfCoeffs {
  double a1 = 0.0, a2 = 0.0, a3 = 0.0;
  double m0 = 1.0, m1 = 0.0, m2 = 0.0;
};
enum class SvfMode : unsigned char { LowPass, HighPass, BandPass, Notch };
SvfCoeffs stateVariable(SvfMode mode, double w0, double q) noexcept SPINDLE_REALTIME;

}  // namespace spindle::engine::dsp
