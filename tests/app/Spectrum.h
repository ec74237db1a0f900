#pragma once
// Spectral measures of rendered audio, for tests that compare an effect with the dry
// signal: the power-weighted mean frequency (spectral centroid) of Hann-windowed
// 8192-frame segments, and the power in a band of them.
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace spindle::test {

// In-place radix-2 FFT; x.size() is a power of two.
inline void fft(std::vector<std::complex<double>>& x) {
  const size_t n = x.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    const std::complex<double> w = std::polar(1.0, -2.0 * std::numbers::pi / static_cast<double>(len));
    for (size_t i = 0; i < n; i += len) {
      std::complex<double> wk = 1.0;
      for (size_t k = 0; k < len / 2; ++k, wk *= w) {
        const std::complex<double> a = x[i + k], b = x[i + k + len / 2] * wk;
        x[i + k] = a + b;
        x[i + k + len / 2] = a - b;
      }
    }
  }
}

// Calls onBin(hz, power) for the bins 1..N/2-1 of every whole Hann-windowed 8192-frame
// segment of left + right in frames [begin, end).
template <class OnBin>
void forEachBin(const std::vector<float>& left, const std::vector<float>& right, size_t begin, size_t end,
                double sampleRate, OnBin onBin) {
  constexpr size_t kN = 8192;
  for (size_t at = begin; at + kN <= end && at + kN <= left.size(); at += kN) {
    std::vector<std::complex<double>> x(kN);
    for (size_t i = 0; i < kN; ++i) {
      const double hann = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(i) / kN);
      x[i] = hann * (static_cast<double>(left[at + i]) + static_cast<double>(right[at + i]));
    }
    fft(x);
    for (size_t k = 1; k < kN / 2; ++k) onBin(static_cast<double>(k) * sampleRate / kN, std::norm(x[k]));
  }
}

// Centroid in Hz of left + right over frames [begin, end), power-weighted.
inline double spectralCentroid(const std::vector<float>& left, const std::vector<float>& right, size_t begin,
                               size_t end, double sampleRate) {
  double weighted = 0.0, total = 0.0;
  forEachBin(left, right, begin, end, sampleRate, [&](double hz, double power) {
    weighted += power * hz;
    total += power;
  });
  return total > 0.0 ? weighted / total : 0.0;
}

// Power (dB) of left + right over frames [begin, end) in the bins from `lowHz` to `highHz`.
inline double bandPowerDb(const std::vector<float>& left, const std::vector<float>& right, size_t begin, size_t end,
                          double sampleRate, double lowHz, double highHz) {
  double total = 0.0;
  forEachBin(left, right, begin, end, sampleRate, [&](double hz, double power) {
    if (hz >= lowHz && hz <= highHz) total += power;
  });
  return 10.0 * std::log10(total + 1e-30);
}

}  // namespace spindle::test
