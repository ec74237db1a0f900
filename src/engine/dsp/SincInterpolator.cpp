// Table construction of SincInterpolator. Runs once at startup (allocates).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/Limits.h"
#include "engine/dsp/Interpolators.h"

namespace spindle::engine::dsp {

namespace {

// Zeroth-order modified Bessel function of the first kind, by its power series.
double besselI0(double x) {
  const double q = 0.25 * x * x;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 64 && term > 1e-17 * sum; ++k) {
    term *= q / (static_cast<double>(k) * static_cast<double>(k));
    sum += term;
  }
  return sum;
}

// Kaiser window on u in [-1, 1], 0 outside; i0Beta = besselI0(beta), computed once
// per row by the caller (the series is most of the table's construction time).
double kaiser(double u, double beta, double i0Beta) {
  if (u <= -1.0 || u >= 1.0) return 0.0;
  return besselI0(beta * std::sqrt(1.0 - u * u)) / i0Beta;
}

double sinc(double x) {
  if (std::abs(x) < 1e-12) return 1.0;
  const double a = std::numbers::pi * x;
  return std::sin(a) / a;
}

// Longer kernels afford a deeper stopband for the same relative transition width.
double kaiserBeta(int halfTaps) { return 6.0 + 0.2 * static_cast<double>(halfTaps); }

// Fills `row` (2*halfTaps taps) with the kernel for fractional position `frac` and
// cutoff `fc` (fraction of Nyquist), normalised to a DC gain of exactly 1.
void kernelRow(std::vector<double>& row, int halfTaps, double frac, double fc) {
  const double beta = kaiserBeta(halfTaps);
  const double i0Beta = besselI0(beta);
  double sum = 0.0;
  for (int k = 0; k < 2 * halfTaps; ++k) {
    const double x = static_cast<double>(k - halfTaps + 1) - frac;  // distance of tap k from the read point
    const double h = fc * sinc(fc * x) * kaiser(x / static_cast<double>(halfTaps), beta, i0Beta);
    row[static_cast<std::size_t>(k)] = h;
    sum += h;
  }
  for (double& h : row) h /= sum;
}

}  // namespace

double SincInterpolator::bandCutoff(int band) noexcept {
  return std::exp2(-static_cast<double>(band) / static_cast<double>(kBandsPerOctave));
}

SincInterpolator::SincInterpolator(int halfTaps)
    : halfTaps_(std::clamp(halfTaps, 1, limits::kGuardFrames)),
      rowSize_(static_cast<std::size_t>(4 * halfTaps_)),
      table_(static_cast<std::size_t>(kBands) * kPhases * rowSize_) {
  const std::size_t taps = static_cast<std::size_t>(2 * halfTaps_);
  std::vector<double> current(taps), next(taps);
  for (int band = 0; band < kBands; ++band) {
    const double fc = bandCutoff(band);
    kernelRow(current, halfTaps_, 0.0, fc);
    for (int phase = 0; phase < kPhases; ++phase) {
      kernelRow(next, halfTaps_, static_cast<double>(phase + 1) / kPhases, fc);
      float* out = table_.data() + (static_cast<std::size_t>(band) * kPhases + static_cast<std::size_t>(phase)) * rowSize_;
      for (std::size_t k = 0; k < taps; ++k) {
        out[k] = static_cast<float>(current[k]);
        out[taps + k] = static_cast<float>(next[k] - current[k]);
      }
      std::swap(current, next);
    }
  }
}

}  // namespace spindle::engine::dsp
