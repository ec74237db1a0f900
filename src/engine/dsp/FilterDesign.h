#pragma once
// Coefficient design for the per-voice filter (Filter.h) and EQ (Eq.h): trapezoidal
// ("topology-preserving", zero-delay-feedback) state-variable and one-pole sections
// (run by SvfRun.h). Pure functions of the normalised cutoff, no state. Audio thread.
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
// These are the prototypes of R. Bristow-Johnson's "Audio EQ Cookbook".
//
// Why not biquads: a direct-form biquad's two delays hold mixes of past inputs and
// outputs weighted by the coefficients, so a new cutoff reinterprets them and the
// output steps, and cutoffs that jump every few frames can pump energy in without
// bound. Here every state is an integrator's output, in the same units whatever
// the cutoff; see the stability note below.
#include "core/Realtime.h"

namespace spindle::engine::dsp {

// Second order. The analog state-variable filter, in s normalised to its own cutoff:
//   hp = x - k*bp - lp,  bp = hp / s,  lp = bp / s      (k = 1/Q)
// so lp = x/D, bp = s*x/D, hp = s^2*x/D with D = s^2 + k*s + 1. Any numerator
// c2*s^2 + c1*s + c0 over D is then c2*hp + c1*bp + c0*lp, which with hp written out
// is  y = m0*x + m1*bp + m2*lp,  m0 = c2, m1 = c1 - k*c2, m2 = c0 - c2.
//
// Each integrator u -> u/s becomes trapezoidal, out = ic + g*u, then ic' = out + g*u
// = 2*out - ic, with g = tan(w/2) of the section's cutoff w. Solving the loop:
//   bp = (ic1 + g*(x - ic2)) / (1 + g*(g + k)) = a1*ic1 + a2*(x - ic2)
//   lp = ic2 + g*bp = ic2 + a2*ic1 + a3*(x - ic2)
// with a1 = 1/(1 + g*(g + k)), a2 = g*a1, a3 = g*a2; then ic1 = 2*bp - ic1,
// ic2 = 2*lp - ic2.
//
// Stability under any coefficient sequence: with no input, (ic1, ic2) is multiplied
// each frame by the Cayley transform (I + gM)(I - gM)^-1 of M = [[-k, -1], [1, 0]],
// and since M + M^T = diag(-2k, 0) <= 0 that matrix has norm <= 1 for every g > 0,
// k >= 0. The states keep their meaning when g or k change, so the state's length
// can never grow without input, however the cutoff jumps.
//
// Per frame the section runs in its matrix form (SvfRun.h), the same arithmetic
// regrouped so that a frame's state depends on the last one through one multiply and
// two adds (the chain above is five operations long):
//   ic1' = s11*ic1 + s12*ic2 + b1*x,  s11 = 2*a1 - 1, s12 = -2*a2, b1 = 2*a2
//   ic2' = s21*ic1 + s22*ic2 + b2*x,  s21 = 2*a2,     s22 = 1 - 2*a3, b2 = 2*a3
//   y    = c0*x + c1*ic1 + c2*ic2,    c0 = m0 + m1*a2 + m2*a3, c1 = m1*a1 + m2*a2,
//                                     c2 = m2*(1 - a3) - m1*a2
struct SvfCoeffs {
  double a1 = 0.0, a2 = 0.0, a3 = 0.0;
  double m0 = 1.0, m1 = 0.0, m2 = 0.0;  // the defaults pass audio through
  double s11 = -1.0, s12 = 0.0, b1 = 0.0, s21 = 0.0, s22 = 1.0, b2 = 0.0;
  double c0 = 1.0, c1 = 0.0, c2 = 0.0;
};

// First order: lp = x / (s + 1), one trapezoidal integrator in a loop:
//   lp = (ic + g*x) / (1 + g) = ic + G*(x - ic),  G = g / (1 + g);  ic' = 2*lp - ic
// so ic' = ((1 - g)/(1 + g))*ic + ..., |factor| < 1 for every g > 0.
//   y = m0*x + m1*lp   (high pass x - lp; all pass lp - hp = 2*lp - x)
struct OnePoleCoeffs {
  double gain = 0.0;  // G
  double m0 = 1.0, m1 = 0.0;
};

// w0 = 2*pi*cutoff/sampleRate in (0, pi); q > 0. Mixing coefficients (g0 = tan(w0/2),
// k = 1/Q, the section's g in brackets where it is not g0):
//   lowPass   m = (0, 0, 1)          highPass  m = (1, -k, -1)
//   bandPass  m = (0, k, 0)          notch     m = (1, -k, 0)
//   peaking   k' = 1/(A*Q),  m = (1, k'*(A^2 - 1), 0)
//   lowShelf  [g0/sqrt(A)]  m = (1, k*(A - 1), A^2 - 1)
//   highShelf [g0*sqrt(A)]  m = (A^2, k*A*(1 - A), 1 - A^2)
// (derivations beside each design in FilterDesign.cpp)
SvfCoeffs lowPass(double w0, double q) noexcept SPINDLE_REALTIME;
SvfCoeffs highPass(double w0, double q) noexcept SPINDLE_REALTIME;
SvfCoeffs bandPass(double w0, double q) noexcept SPINDLE_REALTIME;
SvfCoeffs notch(double w0, double q) noexcept SPINDLE_REALTIME;
SvfCoeffs peaking(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME;
SvfCoeffs lowShelf(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME;
SvfCoeffs highShelf(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME;
//   onePoleLow m = (0, 1)    onePoleHigh m = (1, -1)    allPass1 m = (-1, 2)
OnePoleCoeffs onePoleLow(double w0) noexcept SPINDLE_REALTIME;
OnePoleCoeffs onePoleHigh(double w0) noexcept SPINDLE_REALTIME;
OnePoleCoeffs allPass1(double w0) noexcept SPINDLE_REALTIME;

}  // namespace spindle::engine::dsp
