// Filter: magnitude response at and an octave around the cutoff for every type
// (sine in, RMS out, compared with the prewarped analog prototype), pass-through,
// clamping and stability.
#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <vector>

#include "catch.h"
#include "engine/dsp/Filter.h"

namespace filter_tests {

using spindle::FilterType;
using spindle::engine::dsp::Filter;

namespace {

constexpr double kRate = 48000.0;
constexpr int kSettle = 24000;  // 0.5 s to let transients die
constexpr int kMeasure = 48000;  // 1 s: whole periods of every test frequency

// Gain in dB of the filter for a sine at `hz`, measured by RMS.
double measureDb(FilterType type, float cutoff, float resonance, double hz) {
  Filter f;
  f.setup(type, kRate);
  f.setParams(cutoff, resonance);
  std::vector<float> l(kSettle + kMeasure), r(kSettle + kMeasure);
  for (std::size_t i = 0; i < l.size(); ++i) l[i] = r[i] = static_cast<float>(std::sin(2.0 * std::numbers::pi * hz * static_cast<double>(i) / kRate));
  f.process(l.data(), r.data(), static_cast<int>(l.size()));
  double in = 0.0, out = 0.0;
  for (std::size_t i = kSettle; i < l.size(); ++i) {
    const double x = std::sin(2.0 * std::numbers::pi * hz * static_cast<double>(i) / kRate);
    in += x * x;
    out += static_cast<double>(l[i]) * static_cast<double>(l[i]);
    REQUIRE(l[i] == r[i]);
  }
  return 10.0 * std::log10(out / in);
}

// The analog prototype at the bilinear-prewarped frequency: what the digital filter
// must match at every frequency.
double expectedDb(FilterType type, double cutoff, double resonanceDb, double hz) {
  const double q = std::pow(10.0, resonanceDb / 20.0) / std::numbers::sqrt2;
  const double w = std::tan(std::numbers::pi * hz / kRate) / std::tan(std::numbers::pi * cutoff / kRate);
  const std::complex<double> s(0.0, w);
  const std::complex<double> den2 = s * s + s / q + 1.0;
  std::complex<double> h;
  switch (type) {
    case FilterType::Lpf1p: h = 1.0 / (s + 1.0); break;
    case FilterType::Hpf1p: h = s / (s + 1.0); break;
    case FilterType::Lpf2p: h = 1.0 / den2; break;
    case FilterType::Hpf2p: h = s * s / den2; break;
    case FilterType::Bpf2p: h = (s / q) / den2; break;
    case FilterType::Brf2p: h = (s * s + 1.0) / den2; break;
    default: h = 1.0; break;  // None; the SFZ v2 types are in FilterTypeTests.cpp
  }
  return 20.0 * std::log10(std::abs(h));
}

}  // namespace

TEST_CASE("Filter magnitude at the cutoff and an octave either side", "[dsp][filter]") {
  const FilterType types[] = {FilterType::Lpf1p, FilterType::Hpf1p, FilterType::Lpf2p,
                              FilterType::Hpf2p, FilterType::Bpf2p, FilterType::Brf2p};
  for (FilterType type : types)
    for (float resonance : {0.0f, 6.0f})
      for (double hz : {500.0, 1000.0, 2000.0}) {
        if (type == FilterType::Brf2p && hz == 1000.0) continue;  // the notch: checked below
        const double want = expectedDb(type, 1000.0, static_cast<double>(resonance), hz);
        INFO("type " << static_cast<int>(type) << " resonance " << resonance << " hz " << hz);
        CHECK(measureDb(type, 1000.0f, resonance, hz) == Approx(want).margin(0.05));
      }
}

TEST_CASE("Filter landmarks: -3 dB at cutoff, resonance peak, notch, slopes", "[dsp][filter]") {
  CHECK(measureDb(FilterType::Lpf2p, 1000.0f, 0.0f, 1000.0) == Approx(-3.01).margin(0.05));
  CHECK(measureDb(FilterType::Hpf2p, 1000.0f, 0.0f, 1000.0) == Approx(-3.01).margin(0.05));
  CHECK(measureDb(FilterType::Lpf1p, 1000.0f, 0.0f, 1000.0) == Approx(-3.01).margin(0.05));
  CHECK(measureDb(FilterType::Hpf1p, 1000.0f, 0.0f, 1000.0) == Approx(-3.01).margin(0.05));
  CHECK(measureDb(FilterType::Bpf2p, 1000.0f, 0.0f, 1000.0) == Approx(0.0).margin(0.05));
  CHECK(measureDb(FilterType::Lpf2p, 1000.0f, 12.0f, 1000.0) == Approx(8.99).margin(0.05));
  CHECK(measureDb(FilterType::Brf2p, 1000.0f, 0.0f, 1000.0) < -40.0);
  // Two octaves above: 2-pole about -24 dB, 1-pole about -12 dB.
  CHECK(measureDb(FilterType::Lpf2p, 1000.0f, 0.0f, 4000.0) < -23.0);
  CHECK(measureDb(FilterType::Lpf1p, 1000.0f, 0.0f, 4000.0) == Approx(-12.5).margin(0.5));
}

TEST_CASE("Filter type None passes audio through unchanged", "[dsp][filter]") {
  Filter f;
  f.setup(FilterType::None, kRate);
  f.setParams(100.0f, 20.0f);
  std::vector<float> l{0.1f, -0.5f, 0.25f, 1.0f}, r{0.3f, 0.0f, -1.0f, 0.7f};
  const auto l0 = l, r0 = r;
  f.process(l.data(), r.data(), 4);
  CHECK(l == l0);
  CHECK(r == r0);
}

TEST_CASE("Filter channels are independent and reset clears state", "[dsp][filter]") {
  Filter f;
  f.setup(FilterType::Lpf2p, kRate);
  f.setParams(2000.0f, 3.0f);
  std::vector<float> l(512, 1.0f), r(512, 0.0f);
  f.process(l.data(), r.data(), 512);
  for (float x : r) REQUIRE(x == 0.0f);
  CHECK(l.back() == Approx(1.0f).margin(1e-3));  // unity DC gain
  f.reset();
  std::vector<float> z1(8, 0.0f), z2(8, 0.0f);
  f.process(z1.data(), z2.data(), 8);
  for (float x : z1) REQUIRE(x == 0.0f);
}

TEST_CASE("Filter cutoff is clamped to [10 Hz, 0.45 * rate]", "[dsp][filter]") {
  CHECK(measureDb(FilterType::Lpf2p, 1e6f, 0.0f, 0.45 * kRate) == Approx(measureDb(FilterType::Lpf2p, 21600.0f, 0.0f, 0.45 * kRate)).margin(1e-6));
  CHECK(measureDb(FilterType::Hpf2p, 0.0f, 0.0f, 1000.0) == Approx(measureDb(FilterType::Hpf2p, 10.0f, 0.0f, 1000.0)).margin(1e-6));
  CHECK(measureDb(FilterType::Hpf2p, -5.0f, 0.0f, 1000.0) == Approx(measureDb(FilterType::Hpf2p, 10.0f, 0.0f, 1000.0)).margin(1e-6));
}

TEST_CASE("Filter stays stable for any parameters", "[dsp][filter]") {
  const float cutoffs[] = {-1.0f, 0.0f, 1.0f, 10.0f, 440.0f, 21600.0f, 23999.0f, 1e9f, NAN, INFINITY};
  const float resonances[] = {-100.0f, 0.0f, 24.0f, 40.0f, 1000.0f, NAN};
  const FilterType types[] = {FilterType::Lpf1p, FilterType::Hpf1p, FilterType::Lpf2p,
                              FilterType::Hpf2p, FilterType::Bpf2p, FilterType::Brf2p};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> noise(-1.0f, 1.0f);
  for (FilterType type : types)
    for (float c : cutoffs)
      for (float q : resonances) {
        Filter f;
        f.setup(type, kRate);
        f.setParams(c, q);
        std::vector<float> l(4800), r(4800);
        for (std::size_t i = 0; i < l.size(); ++i) l[i] = r[i] = noise(rng);
        f.process(l.data(), r.data(), 4800);
        float m = 0.0f;
        for (float x : l) m = std::max(m, std::abs(x));
        INFO("type " << static_cast<int>(type) << " cutoff " << c << " resonance " << q);
        REQUIRE(std::isfinite(m));
        REQUIRE(m < 1000.0f);  // resonance 40 dB: gain up to 100 at the cutoff
      }
}

TEST_CASE("Filter recovers from non-finite input", "[dsp][filter]") {
  Filter f;
  f.setup(FilterType::Lpf2p, kRate);
  f.setParams(1000.0f, 0.0f);
  std::vector<float> l{NAN, 0.0f}, r{0.0f, 0.0f};
  f.process(l.data(), r.data(), 2);
  std::vector<float> a(64, 0.5f), b(64, 0.5f);
  f.process(a.data(), b.data(), 64);
  for (float x : a) REQUIRE(std::isfinite(x));
}

}  // namespace filter_tests
