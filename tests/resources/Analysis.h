#pragma once
// Measurements on mono sample data for the instrument tests: fundamental period by
// normalised autocorrelation, and a loudness-independent brightness figure.
#include <cmath>
#include <cstddef>
#include <vector>

namespace spindle::test {

// Normalised correlation of x[start, start+n) with x[start+lag, start+lag+n). Normalising
// by both windows' energy cancels an exponential decay, so a decaying tone still peaks
// at exactly its period.
inline double correlation(const std::vector<float>& x, std::size_t start, std::size_t n, std::size_t lag) {
  double ab = 0.0, aa = 0.0, bb = 0.0;
  for (std::size_t i = start; i < start + n; ++i) {
    const double a = x[i], b = x[i + lag];
    ab += a * b;
    aa += a * a;
    bb += b * b;
  }
  return aa > 0.0 && bb > 0.0 ? ab / std::sqrt(aa * bb) : 0.0;
}

// The lag of the highest correlation in [lo, hi], refined by a parabola through the
// peak and its neighbours.
inline double correlationPeak(const std::vector<float>& x, std::size_t start, std::size_t n, std::size_t lo,
                              std::size_t hi) {
  std::size_t best = lo;
  double bestValue = -2.0;
  for (std::size_t lag = lo; lag <= hi; ++lag) {
    const double c = correlation(x, start, n, lag);
    if (c > bestValue) {
      bestValue = c;
      best = lag;
    }
  }
  const double left = correlation(x, start, n, best - 1), right = correlation(x, start, n, best + 1);
  const double curvature = left - 2.0 * bestValue + right;
  return static_cast<double>(best) + (curvature < 0.0 ? 0.5 * (left - right) / curvature : 0.0);
}

// The period (in frames) near `expected` of the tone starting at `start`. The first
// estimate searches +-6 % around `expected`; each further pass finds the peak near twice
// as many periods, so the interpolation error is divided by the number of periods spanned.
inline double measurePeriod(const std::vector<float>& x, std::size_t start, double expected) {
  constexpr std::size_t kWindow = 8192;
  constexpr double kMaxSpan = 6000.0;
  if (x.size() < start + kWindow + static_cast<std::size_t>(kMaxSpan + expected) + 2) return 0.0;
  double period = correlationPeak(x, start, kWindow, static_cast<std::size_t>(expected * 0.94),
                                  static_cast<std::size_t>(expected * 1.06) + 1);
  for (double periods = 2.0; periods * period <= kMaxSpan; periods *= 2.0) {
    const auto centre = static_cast<std::size_t>(std::lround(periods * period));
    period = correlationPeak(x, start, kWindow, centre - 2, centre + 2) / periods;
  }
  return period;
}

inline double centsBetween(double hz, double referenceHz) { return 1200.0 * std::log2(hz / referenceHz); }

// Mean-square slope over mean-square level of x[start, start+n): the power spectrum
// weighted by 4 sin^2(w/2), i.e. a spectral-centroid-like brightness that ignores gain.
inline double brightness(const std::vector<float>& x, std::size_t start, std::size_t n) {
  double slope = 0.0, level = 0.0;
  for (std::size_t i = start + 1; i < start + n && i < x.size(); ++i) {
    const double d = static_cast<double>(x[i]) - static_cast<double>(x[i - 1]);
    slope += d * d;
    level += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  }
  return level > 0.0 ? slope / level : 0.0;
}

// How much brighter than a pure sine at f0 the tone is: 0 for a sine, growing with the
// share of energy in the overtones (and weighted towards the high ones). Unlike brightness()
// it stays meaningful in the treble, where the fundamental itself is already bright.
inline double overtoneBrightness(const std::vector<float>& x, std::size_t start, std::size_t n, double f0,
                                 double sampleRate) {
  const double s = std::sin(3.14159265358979323846 * f0 / sampleRate);
  return brightness(x, start, n) / (4.0 * s * s) - 1.0;
}

inline double rms(const std::vector<float>& x, std::size_t start, std::size_t n) {
  double sum = 0.0;
  for (std::size_t i = start; i < start + n && i < x.size(); ++i) sum += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  return std::sqrt(sum / static_cast<double>(n));
}

}  // namespace spindle::test
