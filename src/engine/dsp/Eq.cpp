#include "engine/dsp/Eq.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spindle::engine::dsp {

namespace {

// value clamped to [lo, hi]; NaN or infinity gives `bad`.
double clampOr(float value, double lo, double hi, double bad) noexcept SPINDLE_REALTIME {
  return std::isfinite(value) ? std::clamp(static_cast<double>(value), lo, hi) : bad;
}

}  // namespace

double Eq::bandwidthToQ(double bwOctaves, double w0) noexcept SPINDLE_REALTIME {
  return 0.5 / std::sinh(0.5 * std::numbers::ln2 * bwOctaves * w0 / std::sin(w0));
}

void Eq::setup(double sampleRate) noexcept SPINDLE_REALTIME {
  sampleRate_ = sampleRate > 0.0 ? sampleRate : 48000.0;
  types_.fill(EqType::Peak);
  on_.fill(false);
  left_.fill(SvfState{});
  right_.fill(SvfState{});
}

void Eq::setType(int band, EqType type) noexcept SPINDLE_REALTIME {
  if (band >= 0 && band < kBands) types_[static_cast<size_t>(band)] = type;
}

void Eq::setBand(int band, float freqHz, float bwOctaves, float gainDb) noexcept SPINDLE_REALTIME {
  if (band < 0 || band >= kBands) return;
  const auto b = static_cast<size_t>(band);
  const double gain = clampOr(gainDb, -96.0, 24.0, 0.0);
  on_[b] = on_[b] || gain != 0.0;
  if (!on_[b]) return;
  const double f = clampOr(freqHz, 10.0, 0.45 * sampleRate_, 1000.0);
  const double bw = clampOr(bwOctaves, 0.001, 4.0, 1.0);
  const double w0 = 2.0 * std::numbers::pi * f / sampleRate_;
  const double q = bandwidthToQ(bw, w0);
  switch (types_[b]) {
    case EqType::Peak: coefs_[b] = peaking(w0, q, gain); break;
    case EqType::LowShelf: coefs_[b] = lowShelf(w0, std::min(q, kMaxShelfQ), gain); break;
    case EqType::HighShelf: coefs_[b] = highShelf(w0, std::min(q, kMaxShelfQ), gain); break;
  }
}

void Eq::process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  for (size_t b = 0; b < kBands; ++b)
    if (on_[b]) runStereo(coefs_[b], left_[b], right_[b], left, right, frames);
}

void Eq::processMono(float* io, int frames) noexcept SPINDLE_REALTIME {
  for (size_t b = 0; b < kBands; ++b)
    if (on_[b]) runMono(coefs_[b], left_[b], io, frames);
}

}  // namespace spindle::engine::dsp
