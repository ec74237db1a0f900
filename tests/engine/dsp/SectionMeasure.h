#pragma once
// Measurements shared by the filter and EQ tests: the gain of a sine through a fixed
// section (stereo and mono paths alike), the L1 norm of its impulse response (the
// largest |y| any input with |x| <= 1 can give) and a block's peak (infinite when a
// frame is not finite).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "catch.h"

namespace spindle::test {

// Gain in dB of a unit sine at `hz` through `stereo` (process(l, r, n)) after `settle`
// frames, over `measure` frames; `mono` (processMono) must give the same frames.
template <class Section>
double sineGainDb(Section& stereo, Section& mono, double hz, double rate, int settle, int measure) {
  const auto sine = [&](int i) { return std::sin(2.0 * std::numbers::pi * hz * static_cast<double>(i) / rate); };
  std::vector<float> l(static_cast<std::size_t>(settle + measure)), r(l.size()), m(l.size());
  for (std::size_t i = 0; i < l.size(); ++i) l[i] = r[i] = m[i] = static_cast<float>(sine(static_cast<int>(i)));
  stereo.process(l.data(), r.data(), static_cast<int>(l.size()));
  mono.processMono(m.data(), static_cast<int>(m.size()));
  double in = 0.0, out = 0.0;
  for (std::size_t i = static_cast<std::size_t>(settle); i < l.size(); ++i) {
    const double x = sine(static_cast<int>(i));
    in += x * x;
    out += static_cast<double>(l[i]) * static_cast<double>(l[i]);
    REQUIRE(l[i] == r[i]);
    REQUIRE(l[i] == m[i]);
  }
  return 10.0 * std::log10(out / in);
}

// `section` has processMono(float*, int); summed until a block adds less than 1e-9 of
// the total (without input the states only decay, FilterDesign.h).
template <class Section>
double impulseResponseNorm(Section& section) {
  std::vector<float> y(4096, 0.0f);
  y[0] = 1.0f;
  double total = 0.0, block = 1.0;
  while (block > 1e-9 * total) {
    section.processMono(y.data(), static_cast<int>(y.size()));
    block = 0.0;
    for (float v : y) block += std::abs(static_cast<double>(v));
    total += block;
    std::fill(y.begin(), y.end(), 0.0f);
  }
  return total;
}

inline double peakOf(const std::vector<float>& y) {
  double m = 0.0;
  for (float v : y)
    m = std::isfinite(v) ? std::max(m, std::abs(static_cast<double>(v))) : std::numeric_limits<double>::infinity();
  return m;
}

}  // namespace spindle::test
