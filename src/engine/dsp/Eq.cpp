#include "engine/dsp/Eq.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spindle::engine::dsp {

namespace {
// Denormals and non-finite values out of the recurrence state.
double sanitize(double v) noexcept SPINDLE_REALTIME { return std::isfinite(v) && std::fabs(v) > 1e-30 ? v : 0.0; }
}  // namespace

void Eq::setup(double sampleRate) noexcept SPINDLE_REALTIME {
  sampleRate_ = sampleRate > 0.0 ? sampleRate : 48000.0;
  on_.fill(false);
  left_.fill(State{});
  right_.fill(State{});
}

void Eq::setBand(int band, float freqHz, float bwOctaves, float gainDb) noexcept SPINDLE_REALTIME {
  if (band < 0 || band >= kBands) return;
  const auto b = static_cast<size_t>(band);
  const double gain = std::isfinite(gainDb) ? std::clamp(static_cast<double>(gainDb), -96.0, 24.0) : 0.0;
  on_[b] = gain != 0.0;
  if (!on_[b]) return;
  const double f = std::isfinite(freqHz) ? std::clamp(static_cast<double>(freqHz), 10.0, 0.45 * sampleRate_) : 1000.0;
  const double bw = std::isfinite(bwOctaves) ? std::clamp(static_cast<double>(bwOctaves), 0.001, 4.0) : 1.0;
  const double a = std::pow(10.0, gain / 40.0);
  const double w0 = 2.0 * std::numbers::pi * f / sampleRate_;
  const double sinW = std::sin(w0), cosW = std::cos(w0);
  const double alpha = sinW * std::sinh(std::numbers::ln2 / 2.0 * bw * w0 / sinW);
  const double a0 = 1.0 + alpha / a;
  coefs_[b] = {(1.0 + alpha * a) / a0, -2.0 * cosW / a0, (1.0 - alpha * a) / a0, -2.0 * cosW / a0, (1.0 - alpha / a) / a0};
}

void Eq::run(const Coefs& c, State& s, float* io, int frames) noexcept SPINDLE_REALTIME {
  double z1 = s.z1, z2 = s.z2;
  for (int i = 0; i < frames; ++i) {
    const double x = static_cast<double>(io[i]);
    const double y = c.b0 * x + z1;
    z1 = c.b1 * x - c.a1 * y + z2;
    z2 = c.b2 * x - c.a2 * y;
    io[i] = static_cast<float>(y);
  }
  s.z1 = sanitize(z1);
  s.z2 = sanitize(z2);
}

void Eq::process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  for (size_t b = 0; b < kBands; ++b) {
    if (!on_[b]) continue;
    run(coefs_[b], left_[b], left, frames);
    run(coefs_[b], right_[b], right, frames);
  }
}

void Eq::processMono(float* io, int frames) noexcept SPINDLE_REALTIME {
  for (size_t b = 0; b < kBands; ++b)
    if (on_[b]) run(coefs_[b], left_[b], io, frames);
}

}  // namespace spindle::engine::dsp
