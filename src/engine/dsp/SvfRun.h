#pragma once
// Running the trapezoidal sections of FilterDesign.h over blocks: the per-voice filter
// (Filter.h) and the per-voice EQ (Eq.h) share these loops. Audio thread only;
// header-only so the loops inline into their callers.
#include <cmath>

#include "core/Realtime.h"
#include "engine/dsp/FilterDesign.h"

namespace spindle::engine::dsp {

// Per channel and section: the state-variable filter's two integrator states (ic1 in
// z1, ic2 in z2), or the one-pole's one (z1). Integrator outputs, so they keep their
// meaning whatever coefficients come next (FilterDesign.h).
struct SvfState {
  double z1 = 0.0, z2 = 0.0;
};

// A decaying tail would reach subnormal numbers after silence: far below audibility
// (and float output resolution), so it is flushed to 0. A non-finite state (only from
// non-finite input) is cleared too, so one bad frame cannot silence the voice for good.
inline double sanitizeState(double z) noexcept SPINDLE_REALTIME {
  constexpr double kFlush = 1e-20;
  return std::isfinite(z) && std::abs(z) >= kFlush ? z : 0.0;
}

inline SvfState sanitizeState(SvfState s) noexcept SPINDLE_REALTIME {
  return {sanitizeState(s.z1), sanitizeState(s.z2)};
}

// One frame of the state-variable section, in its matrix form (FilterDesign.h): the
// input terms first, so that each new state waits on the old ones for one multiply
// and one add.
inline double tick(const SvfCoeffs& c, SvfState& s, double x) noexcept SPINDLE_REALTIME {
  const double y = c.c0 * x + c.c1 * s.z1 + c.c2 * s.z2;
  const double z1 = (c.b1 * x + c.s11 * s.z1) + c.s12 * s.z2;
  const double z2 = (c.b2 * x + c.s22 * s.z2) + c.s21 * s.z1;
  s.z1 = z1;
  s.z2 = z2;
  return y;
}

// One frame of the one-pole (FilterDesign.h).
inline double tick(const OnePoleCoeffs& c, SvfState& s, double x) noexcept SPINDLE_REALTIME {
  const double lp = s.z1 + c.gain * (x - s.z1);
  s.z1 = 2.0 * lp - s.z1;
  return c.m0 * x + c.m1 * lp;
}

// One section over a block, mono or both channels in one loop (their two recurrences
// overlap in the pipeline). Each channel's arithmetic is the same either way, so
// stereo and mono give the same output.
template <typename Coeffs>
void runMono(const Coeffs& c, SvfState& s, float* io, int frames) noexcept SPINDLE_REALTIME {
  SvfState local = s;
  for (int i = 0; i < frames; ++i) io[i] = static_cast<float>(tick(c, local, static_cast<double>(io[i])));
  s = sanitizeState(local);
}

template <typename Coeffs>
void runStereo(const Coeffs& c, SvfState& ls, SvfState& rs, float* left, float* right,
               int frames) noexcept SPINDLE_REALTIME {
  SvfState l = ls, r = rs;
  for (int i = 0; i < frames; ++i) {
    left[i] = static_cast<float>(tick(c, l, static_cast<double>(left[i])));
    right[i] = static_cast<float>(tick(c, r, static_cast<double>(right[i])));
  }
  ls = sanitizeState(l);
  rs = sanitizeState(r);
}

}  // namespace spindle::engine::dsp
