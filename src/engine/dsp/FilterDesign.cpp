#include "engine/dsp/FilterDesign.h"

#include <cmath>

namespace spindle::engine::dsp {

namespace {

// Divides every coefficient by a0.
BiquadCoeffs normalised(double b0, double b1, double b2, double a0, double a1, double a2) noexcept SPINDLE_REALTIME {
  const double n = 1.0 / a0;
  return {b0 * n, b1 * n, b2 * n, a1 * n, a2 * n};
}

// The cookbook's alpha: sin(w0) / (2Q).
double alphaOf(double w0, double q) noexcept SPINDLE_REALTIME { return std::sin(w0) / (2.0 * q); }

// A = 10^(gain/40): the amplitude at the cutoff of the shelves and the square root of
// the peaking filter's.
double shelfAmplitude(double gainDb) noexcept SPINDLE_REALTIME { return std::pow(10.0, gainDb / 40.0); }

}  // namespace

BiquadCoeffs lowPass(double w0, double q) noexcept SPINDLE_REALTIME {
  const double c = std::cos(w0), alpha = alphaOf(w0, q);
  return normalised(0.5 * (1.0 - c), 1.0 - c, 0.5 * (1.0 - c), 1.0 + alpha, -2.0 * c, 1.0 - alpha);
}

BiquadCoeffs highPass(double w0, double q) noexcept SPINDLE_REALTIME {
  const double c = std::cos(w0), alpha = alphaOf(w0, q);
  return normalised(0.5 * (1.0 + c), -(1.0 + c), 0.5 * (1.0 + c), 1.0 + alpha, -2.0 * c, 1.0 - alpha);
}

BiquadCoeffs bandPass(double w0, double q) noexcept SPINDLE_REALTIME {
  const double c = std::cos(w0), alpha = alphaOf(w0, q);
  return normalised(alpha, 0.0, -alpha, 1.0 + alpha, -2.0 * c, 1.0 - alpha);
}

BiquadCoeffs notch(double w0, double q) noexcept SPINDLE_REALTIME {
  const double c = std::cos(w0), alpha = alphaOf(w0, q);
  return normalised(1.0, -2.0 * c, 1.0, 1.0 + alpha, -2.0 * c, 1.0 - alpha);
}

BiquadCoeffs peaking(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME {
  const double c = std::cos(w0), alpha = alphaOf(w0, q), a = shelfAmplitude(gainDb);
  return normalised(1.0 + alpha * a, -2.0 * c, 1.0 - alpha * a, 1.0 + alpha / a, -2.0 * c, 1.0 - alpha / a);
}

BiquadCoeffs lowShelf(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME {
  const double c = std::cos(w0), a = shelfAmplitude(gainDb);
  const double r = 2.0 * std::sqrt(a) * alphaOf(w0, q);
  const double p = a + 1.0, m = a - 1.0;
  return normalised(a * (p - m * c + r), 2.0 * a * (m - p * c), a * (p - m * c - r),
                    p + m * c + r, -2.0 * (m + p * c), p + m * c - r);
}

BiquadCoeffs highShelf(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME {
  const double c = std::cos(w0), a = shelfAmplitude(gainDb);
  const double r = 2.0 * std::sqrt(a) * alphaOf(w0, q);
  const double p = a + 1.0, m = a - 1.0;
  return normalised(a * (p + m * c + r), -2.0 * a * (m + p * c), a * (p + m * c - r),
                    p - m * c + r, 2.0 * (m - p * c), p - m * c - r);
}

// The first-order designs substitute s = (1/K)(1 - z^-1)/(1 + z^-1), K = tan(w0/2).
BiquadCoeffs onePoleLow(double w0) noexcept SPINDLE_REALTIME {
  const double k = std::tan(0.5 * w0);
  return normalised(k, k, 0.0, 1.0 + k, k - 1.0, 0.0);
}

BiquadCoeffs onePoleHigh(double w0) noexcept SPINDLE_REALTIME {
  const double k = std::tan(0.5 * w0);
  return normalised(1.0, -1.0, 0.0, 1.0 + k, k - 1.0, 0.0);
}

BiquadCoeffs allPass1(double w0) noexcept SPINDLE_REALTIME {
  const double k = std::tan(0.5 * w0);
  return normalised(k - 1.0, k + 1.0, 0.0, k + 1.0, k - 1.0, 0.0);
}

SvfCoeffs stateVariable(SvfMode mode, double w0, double q) noexcept SPINDLE_REALTIME {
  const double g = std::tan(0.5 * w0), k = 1.0 / q;
  SvfCoeffs c;
  c.a1 = 1.0 / (1.0 + g * (g + k));
  c.a2 = g * c.a1;
  c.a3 = g * c.a2;
  switch (mode) {
    case SvfMode::LowPass: c.m0 = 0.0; c.m1 = 0.0; c.m2 = 1.0; break;
    case SvfMode::HighPass: c.m0 = 1.0; c.m1 = -k; c.m2 = -1.0; break;
    case SvfMode::BandPass: c.m0 = 0.0; c.m1 = k; c.m2 = 0.0; break;
    case SvfMode::Notch: c.m0 = 1.0; c.m1 = -k; c.m2 = 0.0; break;
  }
  return c;
}

}  // namespace spindle::engine::dsp
