#include "engine/dsp/Filter.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spindle::engine::dsp {

namespace {

// A decaying tail would reach subnormal numbers after silence: far below audibility
// (and float output resolution), so it is flushed to 0. A non-finite state (only from
// non-finite input) is cleared too, so one bad frame cannot silence the voice for good.
double sanitize(double z) noexcept SPINDLE_REALTIME {
  constexpr double kFlush = 1e-20;
  return std::isfinite(z) && std::abs(z) >= kFlush ? z : 0.0;
}

}  // namespace

void Filter::setup(FilterType type, double sampleRate) noexcept SPINDLE_REALTIME {
  type_ = type;
  sampleRate_ = sampleRate > 0.0 ? sampleRate : 48000.0;
  b0_ = 1.0;
  b1_ = b2_ = a1_ = a2_ = 0.0;
  reset();
}

void Filter::reset() noexcept SPINDLE_REALTIME {
  left_ = State{};
  right_ = State{};
}

void Filter::setParams(float cutoffHz, float resonanceDb) noexcept SPINDLE_REALTIME {
  if (type_ == FilterType::None) return;
  const double maxCutoff = static_cast<double>(kMaxCutoffFraction) * sampleRate_;
  double cutoff = static_cast<double>(cutoffHz);
  cutoff = cutoff >= static_cast<double>(kMinCutoffHz) ? std::min(cutoff, maxCutoff) : static_cast<double>(kMinCutoffHz);
  const double res = resonanceDb > 0.0f ? static_cast<double>(std::min(resonanceDb, kMaxResonanceDb)) : 0.0;
  const double w0 = 2.0 * std::numbers::pi * cutoff / sampleRate_;
  if (type_ == FilterType::Lpf1p || type_ == FilterType::Hpf1p) {
    setOnePole(w0);
  } else {
    setTwoPole(w0, std::pow(10.0, res / 20.0) * std::numbers::sqrt2 * 0.5);
  }
}

void Filter::setTwoPole(double w0, double q) noexcept SPINDLE_REALTIME {
  const double cw = std::cos(w0);
  const double alpha = std::sin(w0) / (2.0 * q);
  const double norm = 1.0 / (1.0 + alpha);
  switch (type_) {
    case FilterType::Lpf2p: b0_ = b2_ = 0.5 * (1.0 - cw) * norm; b1_ = (1.0 - cw) * norm; break;
    case FilterType::Hpf2p: b0_ = b2_ = 0.5 * (1.0 + cw) * norm; b1_ = -(1.0 + cw) * norm; break;
    case FilterType::Bpf2p: b0_ = alpha * norm; b1_ = 0.0; b2_ = -alpha * norm; break;
    case FilterType::Brf2p: b0_ = b2_ = norm; b1_ = -2.0 * cw * norm; break;
    default: return;
  }
  a1_ = -2.0 * cw * norm;
  a2_ = (1.0 - alpha) * norm;
}

// Bilinear one-pole with K = tan(w0/2): |H| = 1/sqrt(2) exactly at the cutoff.
void Filter::setOnePole(double w0) noexcept SPINDLE_REALTIME {
  const double k = std::tan(0.5 * w0);
  const double norm = 1.0 / (1.0 + k);
  if (type_ == FilterType::Lpf1p) {
    b0_ = b1_ = k * norm;
  } else {
    b0_ = norm;
    b1_ = -norm;
  }
  b2_ = 0.0;
  a1_ = (k - 1.0) * norm;
  a2_ = 0.0;
}

void Filter::processChannel(float* io, int frames, State& s) const noexcept SPINDLE_REALTIME {
  const double b0 = b0_, b1 = b1_, b2 = b2_, a1 = a1_, a2 = a2_;
  double z1 = s.z1, z2 = s.z2;
  for (int i = 0; i < frames; ++i) {
    const double x = static_cast<double>(io[i]);
    const double y = b0 * x + z1;
    z1 = b1 * x - a1 * y + z2;
    z2 = b2 * x - a2 * y;
    io[i] = static_cast<float>(y);
  }
  s.z1 = sanitize(z1);
  s.z2 = sanitize(z2);
}

// Both channels in one loop: their two recurrences overlap in the pipeline. Each
// channel's arithmetic is the same as processChannel()'s, so the output is too.
void Filter::process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (type_ == FilterType::None) return;
  const double b0 = b0_, b1 = b1_, b2 = b2_, a1 = a1_, a2 = a2_;
  double l1 = left_.z1, l2 = left_.z2, r1 = right_.z1, r2 = right_.z2;
  for (int i = 0; i < frames; ++i) {
    const double xl = static_cast<double>(left[i]), xr = static_cast<double>(right[i]);
    const double yl = b0 * xl + l1, yr = b0 * xr + r1;
    l1 = b1 * xl - a1 * yl + l2;
    r1 = b1 * xr - a1 * yr + r2;
    l2 = b2 * xl - a2 * yl;
    r2 = b2 * xr - a2 * yr;
    left[i] = static_cast<float>(yl);
    right[i] = static_cast<float>(yr);
  }
  left_ = {sanitize(l1), sanitize(l2)};
  right_ = {sanitize(r1), sanitize(r2)};
}

void Filter::processMono(float* io, int frames) noexcept SPINDLE_REALTIME {
  if (type_ == FilterType::None) return;
  processChannel(io, frames, left_);
}

}  // namespace spindle::engine::dsp
