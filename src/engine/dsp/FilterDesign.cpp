#include "engine/dsp/FilterDesign.h"

#include <cmath>

namespace spindle::engine::dsp {

namespace {

// A = 10^(gain/40): the amplitude at the cutoff of the shelves and the square root of
// the peaking filter's.
double shelfAmplitude(double gainDb) noexcept SPINDLE_REALTIME { return std::pow(10.0, gainDb / 40.0); }

// The bilinear transform's prewarped integrator gain for a cutoff w0.
double prewarp(double w0) noexcept SPINDLE_REALTIME { return std::tan(0.5 * w0); }

// A state-variable section at integrator gain g, damping k, output mix m.
SvfCoeffs section(double g, double k, double m0, double m1, double m2) noexcept SPINDLE_REALTIME {
  SvfCoeffs c;
  c.a1 = 1.0 / (1.0 + g * (g + k));
  c.a2 = g * c.a1;
  c.a3 = g * c.a2;
  c.m0 = m0;
  c.m1 = m1;
  c.m2 = m2;
  c.s11 = 2.0 * c.a1 - 1.0;
  c.s12 = -2.0 * c.a2;
  c.b1 = 2.0 * c.a2;
  c.s21 = 2.0 * c.a2;
  c.s22 = 1.0 - 2.0 * c.a3;
  c.b2 = 2.0 * c.a3;
  c.c0 = m0 + m1 * c.a2 + m2 * c.a3;
  c.c1 = m1 * c.a1 + m2 * c.a2;
  c.c2 = m2 * (1.0 - c.a3) - m1 * c.a2;
  return c;
}

}  // namespace

// Numerators over D = s^2 + k*s + 1, (c2, c1, c0) -> m = (c2, c1 - k*c2, c0 - c2):
// low pass (0, 0, 1); high pass (1, 0, 0); band pass (0, k, 0); notch (1, 0, 1).
SvfCoeffs lowPass(double w0, double q) noexcept SPINDLE_REALTIME {
  return section(prewarp(w0), 1.0 / q, 0.0, 0.0, 1.0);
}

SvfCoeffs highPass(double w0, double q) noexcept SPINDLE_REALTIME {
  const double k = 1.0 / q;
  return section(prewarp(w0), k, 1.0, -k, -1.0);
}

SvfCoeffs bandPass(double w0, double q) noexcept SPINDLE_REALTIME {
  const double k = 1.0 / q;
  return section(prewarp(w0), k, 0.0, k, 0.0);
}

SvfCoeffs notch(double w0, double q) noexcept SPINDLE_REALTIME {
  const double k = 1.0 / q;
  return section(prewarp(w0), k, 1.0, -k, 0.0);
}

// The denominator s^2 + s/(A*Q) + 1 is D with k = 1/(A*Q); the numerator is
// (1, A/Q, 1), so m1 = A/Q - 1/(A*Q) = k*(A^2 - 1).
SvfCoeffs peaking(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME {
  const double a = shelfAmplitude(gainDb), k = 1.0 / (a * q);
  return section(prewarp(w0), k, 1.0, k * (a * a - 1.0), 0.0);
}

// The denominator A*s^2 + s*sqrt(A)/Q + 1 has its poles at |s| = 1/sqrt(A): with
// u = sqrt(A)*s it is u^2 + u/Q + 1, and the numerator A*(s^2 + s*sqrt(A)/Q + A)
// becomes u^2 + A*u/Q + A^2, so m = (1, A*k - k, A^2 - 1). u = sqrt(A)*s is the
// bilinear transform with g = g0/sqrt(A), the same digital mapping as s with g0, so
// the response is exactly the prototype's.
SvfCoeffs lowShelf(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME {
  const double a = shelfAmplitude(gainDb), k = 1.0 / q;
  return section(prewarp(w0) / std::sqrt(a), k, 1.0, k * (a - 1.0), a * a - 1.0);
}

// The denominator s^2 + s*sqrt(A)/Q + A has its poles at |s| = sqrt(A): with
// s = sqrt(A)*u it is A*(u^2 + u/Q + 1), and the numerator A*(A*s^2 + s*sqrt(A)/Q + 1)
// becomes A*(A^2*u^2 + A*u/Q + 1), so H = (A^2*u^2 + A*k*u + 1) / (u^2 + k*u + 1) and
// m = (A^2, A*k - A^2*k, 1 - A^2), at g = g0*sqrt(A).
SvfCoeffs highShelf(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME {
  const double a = shelfAmplitude(gainDb), k = 1.0 / q;
  return section(prewarp(w0) * std::sqrt(a), k, a * a, k * a * (1.0 - a), 1.0 - a * a);
}

namespace {

OnePoleCoeffs onePole(double w0, double m0, double m1) noexcept SPINDLE_REALTIME {
  const double g = prewarp(w0);
  return {g / (1.0 + g), m0, m1};
}

}  // namespace

OnePoleCoeffs onePoleLow(double w0) noexcept SPINDLE_REALTIME { return onePole(w0, 0.0, 1.0); }

OnePoleCoeffs onePoleHigh(double w0) noexcept SPINDLE_REALTIME { return onePole(w0, 1.0, -1.0); }

// (1 - s)/(1 + s) = 1/(1 + s) - s/(1 + s) = lp - hp = 2*lp - x.
OnePoleCoeffs allPass1(double w0) noexcept SPINDLE_REALTIME { return onePole(w0, -1.0, 2.0); }

}  // namespace spindle::engine::dsp
