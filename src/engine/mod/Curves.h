#pragma once
// Curves: every curve the engine plays a value through, in one room. Any thread.
//
// Here, as small pure functions:
//   panGains        pan law: pan, position, CC10 and part pan add up to one p in [-1, 1]
//   velocityGain    amp_veltrack over the velocity curve (v/127)^2 or amp_velcurve_N
//   crossfadeGain   xfin/xfout by key and velocity (xf_keycurve, xf_velcurve)
//   ccCrossfadeGain xfin/xfout_lo/hiccN by controller (xf_cccurve)
//   bendCents       pitch bend to cents (bend_up, bend_down, bend_step...)
//   controllerGain  CC7 volume and CC11 expression
// Beside it in engine/mod: CurveTable.h, the controller curves (curve_index 0..6
// built in, <curve> headers) every controller slot and egN_curveX reads. The stage
// shapes of the v1 envelopes are in engine/mod/Envelope.h, those of the flex EGs in
// FlexEgBank.h: they are walked frame by frame, not looked up.
//
// Pan law: constant power, normalised to unity in the centre, so a centred region
// plays at its own level and a hard-panned one gains +3 dB on its side:
//   theta = (p + 1) * pi/4,   left = sqrt(2) * cos(theta),   right = sqrt(2) * sin(theta)
// Width (stereo files): w = width/100; left' = a*L + b*R, right' = b*L + a*R with
// a = (1 + w)/2, b = (1 - w)/2 (100 %: unchanged, 0: mono, -100 %: swapped).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/Modulation.h"
#include "core/Region.h"

namespace spindle::engine::curves {

struct PanGains {
  float left = 1.0f, right = 1.0f;
};

inline PanGains panGains(float p) noexcept {
  constexpr float kQuarterPi = 0.785398163397448f;
  constexpr float kSqrt2 = 1.41421356237310f;
  // Exact at the centre and the ends (cos(pi/2) in float is not 0).
  if (p == 0.0f) return {1.0f, 1.0f};
  if (p <= -1.0f) return {kSqrt2, 0.0f};
  if (p >= 1.0f) return {0.0f, kSqrt2};
  const float theta = (std::clamp(p, -1.0f, 1.0f) + 1.0f) * kQuarterPi;
  return {kSqrt2 * std::cos(theta), kSqrt2 * std::sin(theta)};
}

// pan_law=balance: the side the pan moves towards stays at unity and the other falls
// along the constant-power curve (a balance control: never louder than the sample).
inline PanGains balanceGains(float p) noexcept {
  const PanGains g = panGains(p);
  return {p > 0.0f ? g.left : 1.0f, p < 0.0f ? g.right : 1.0f};
}
inline PanGains panGains(float p, bool balance) noexcept { return balance ? balanceGains(p) : panGains(p); }

// The SFZ default velocity curve is (v/127)^2; amp_velcurve_N replaces it.
// amp_veltrack t in [-1, 1] scales how much of it applies: 1 + t*(c - 1) for t >= 0,
// 1 - |t|*c for t < 0 (loud at low velocities).
// veltrack: amp_veltrack in percent (with its controller modulation, if any).
inline float velocityGain(const Region& r, int velocity, float veltrack) noexcept {
  const int v = std::clamp(velocity, 0, 127);
  const float x = static_cast<float>(v) / 127.0f;
  const float c = r.hasAmpVelcurve ? r.ampVelcurve[static_cast<size_t>(v)] : x * x;
  const float t = std::clamp(veltrack * 0.01f, -1.0f, 1.0f);
  return t >= 0.0f ? 1.0f + t * (c - 1.0f) : 1.0f + t * c;
}
inline float velocityGain(const Region& r, int velocity) noexcept { return velocityGain(r, velocity, r.ampVeltrack); }

// Fade-in over [lo, hi]: 0 at or below lo, 1 at or above hi. Not set when lo > hi.
inline float crossfadeIn(int value, int lo, int hi, CrossfadeCurve curve) noexcept {
  if (lo > hi || value >= hi) return 1.0f;
  if (value <= lo) return 0.0f;
  const float x = static_cast<float>(value - lo) / static_cast<float>(hi - lo);
  return curve == CrossfadeCurve::Power ? std::sqrt(x) : x;
}

inline float crossfadeOut(int value, int lo, int hi, CrossfadeCurve curve) noexcept {
  if (lo > hi || value <= lo) return 1.0f;
  if (value >= hi) return 0.0f;
  const float x = static_cast<float>(hi - value) / static_cast<float>(hi - lo);
  return curve == CrossfadeCurve::Power ? std::sqrt(x) : x;
}

inline float crossfadeGain(const Region& r, int key, int velocity) noexcept {
  return crossfadeIn(key, r.xfinLokey, r.xfinHikey, r.xfKeycurve) *
         crossfadeOut(key, r.xfoutLokey, r.xfoutHikey, r.xfKeycurve) *
         crossfadeIn(velocity, r.xfinLovel, r.xfinHivel, r.xfVelcurve) *
         crossfadeOut(velocity, r.xfoutLovel, r.xfoutHivel, r.xfVelcurve);
}

// Crossfade by controller, on the 0..127 scale of xfin_loccN..xfout_hiccN (value: the
// controller, 0..1); lo > hi (or lo == hi) leaves the gain at 1. Power: sqrt of the
// linear fade.
inline float ccCrossfadeGain(const CcCrossfade& x, float value, CrossfadeCurve curve) noexcept {
  const float v = value * 127.0f, lo = x.lo, hi = x.hi;
  if (lo >= hi) return 1.0f;
  float t = std::clamp((v - lo) / (hi - lo), 0.0f, 1.0f);
  if (x.fadeOut) t = 1.0f - t;
  return curve == CrossfadeCurve::Power ? std::sqrt(t) : t;
}

// bend_step (bend_stepup for a bend up, bend_stepdown down): `cents` rounded to the region's steps.
inline float stepBend(const Region& r, float cents, bool up) noexcept {
  const int32_t ownStep = up ? r.bendStepUp : r.bendStepDown;
  const int32_t stepCents = ownStep > 0 ? ownStep : r.bendStep;
  if (stepCents <= 1) return cents;
  const float step = static_cast<float>(stepCents);
  return std::round(cents / step) * step;
}

// Pitch bend -8192..8191 to cents: up scales bend_up, down scales bend_down (negative
// in SFZ for a downward bend); a step > 1 quantises the result: bend_stepup /
// bend_stepdown for their direction where given, else bend_step.
inline float bendCents(const Region& r, int bend, float rpnRange) noexcept {
  const float up = r.bendFromRpn ? rpnRange : r.bendUp, down = r.bendFromRpn ? -rpnRange : r.bendDown;
  const float cents = bend >= 0 ? static_cast<float>(bend) / 8191.0f * up : static_cast<float>(-bend) / 8192.0f * down;
  return stepBend(r, cents, bend >= 0);
}

// A member note's own bend (MPE): `cents` at its zone's range, stepped as the channel's bend is.
inline float noteBendCents(const Region& r, float cents) noexcept { return stepBend(r, cents, cents >= 0.0f); }

// CC7 volume and CC11 expression: the MIDI recommended (v/127)^2 (about 40*log10).
inline float controllerGain(int value) noexcept {
  const float x = static_cast<float>(std::clamp(value, 0, 127)) / 127.0f;
  return x * x;
}

}  // namespace spindle::engine::curves
