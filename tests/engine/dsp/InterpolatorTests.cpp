// Interpolators: exactness on polynomials, error ordering, sinc reconstruction and
// anti-aliasing.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "catch.h"
#include "core/Limits.h"
#include "engine/dsp/Interpolators.h"

namespace interpolator_tests {

using namespace spindle::engine::dsp;

namespace {

constexpr int kGuard = spindle::limits::kGuardFrames;

// Frames f(i - kGuard) for i in [0, n + 2*kGuard): index 0 of the signal sits at kGuard.
template <typename F>
std::vector<float> frames(int n, F f) {
  std::vector<float> v(static_cast<std::size_t>(n + 2 * kGuard));
  for (int i = 0; i < n + 2 * kGuard; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(f(static_cast<double>(i - kGuard)));
  return v;
}

const float* at(const std::vector<float>& v, int frame) { return v.data() + kGuard + frame; }

const float kFracs[] = {0.0f, 0.125f, 0.25f, 0.3f, 0.5f, 0.71f, 0.9f, 0.999f};

// Largest |interp - exact| over frames [lo, hi) and kFracs.
template <typename Interp, typename F>
double maxError(const std::vector<float>& v, int lo, int hi, Interp interp, F exact) {
  double worst = 0.0;
  for (int i = lo; i < hi; ++i)
    for (float frac : kFracs) {
      const double want = exact(static_cast<double>(i) + static_cast<double>(frac));
      worst = std::max(worst, std::abs(static_cast<double>(interp(at(v, i), frac)) - want));
    }
  return worst;
}

double sine(double x, double cyclesPerFrame) { return std::sin(2.0 * std::numbers::pi * cyclesPerFrame * x + 0.3); }

}  // namespace

TEST_CASE("Linear interpolation is exact on linear data", "[dsp][interp]") {
  const auto line = [](double x) { return 0.25 * x - 3.0; };
  const auto v = frames(64, line);
  CHECK(maxError(v, 0, 63, interpolateLinear, line) < 1e-5);
}

TEST_CASE("Hermite interpolation is exact on quadratics and passes through frames", "[dsp][interp]") {
  const auto quad = [](double x) { return 0.01 * x * x - 0.3 * x + 2.0; };
  const auto v = frames(64, quad);
  CHECK(maxError(v, 1, 62, interpolateHermite, quad) < 1e-5);
  for (int i = 1; i < 62; ++i) REQUIRE(interpolateHermite(at(v, i), 0.0f) == v[static_cast<std::size_t>(kGuard + i)]);
}

TEST_CASE("Error ordering on a sine: sinc < Hermite < linear", "[dsp][interp]") {
  const double f = 0.05;  // 2.4 kHz at 48 kHz
  const auto s = [f](double x) { return sine(x, f); };
  const auto v = frames(256, s);
  const SincInterpolator sinc8(8), sinc16(16);
  const double linear = maxError(v, 0, 256, interpolateLinear, s);
  const double hermite = maxError(v, 0, 256, interpolateHermite, s);
  const double s8 = maxError(v, 0, 256, [&](const float* p, float fr) { return sinc8.interpolate(p, fr, 1.0f); }, s);
  const double s16 = maxError(v, 0, 256, [&](const float* p, float fr) { return sinc16.interpolate(p, fr, 1.0f); }, s);
  INFO("linear " << linear << " hermite " << hermite << " sinc8 " << s8 << " sinc16 " << s16);
  CHECK(hermite < linear);
  CHECK(s8 < hermite);
  CHECK(s16 <= s8 * 1.5);
  CHECK(linear < 0.04);
  CHECK(hermite < 3e-3);
}

TEST_CASE("Sinc reconstructs band-limited sines at fractional positions", "[dsp][interp]") {
  const SincInterpolator sinc8(8), sinc16(16);
  CHECK(sinc8.halfTaps() == 8);
  CHECK(sinc16.halfTaps() == 16);
  for (double f : {0.01, 0.1, 0.2}) {  // up to 0.4 of Nyquist
    const auto s = [f](double x) { return sine(x, f); };
    const auto v = frames(200, s);
    const double e8 = maxError(v, 0, 200, [&](const float* p, float fr) { return sinc8.interpolate(p, fr, 1.0f); }, s);
    const double e16 = maxError(v, 0, 200, [&](const float* p, float fr) { return sinc16.interpolate(p, fr, 1.0f); }, s);
    INFO("f " << f << " sinc8 " << e8 << " sinc16 " << e16);
    CHECK(e8 < 2e-4);   // about -74 dB
    CHECK(e16 < 5e-5);  // about -86 dB (float table precision)
  }
}

TEST_CASE("Sinc returns the frame itself at frac 0 and ratio <= 1", "[dsp][interp]") {
  const SincInterpolator sinc(8);
  const auto v = frames(32, [](double x) { return std::cos(0.7 * x) + 0.1 * x; });
  for (int i = 0; i < 32; ++i) REQUIRE(sinc.interpolate(at(v, i), 0.0f, 1.0f) == Approx(v[static_cast<std::size_t>(kGuard + i)]).margin(1e-6));
  // DC passes with unit gain at every ratio band.
  const auto dc = frames(8, [](double) { return 0.5; });
  for (float ratio : {1.0f, 1.5f, 3.0f, 40.0f}) CHECK(sinc.interpolate(at(dc, 2), 0.37f, ratio) == Approx(0.5f).margin(1e-5));
}

TEST_CASE("Sinc lowers its cutoff when reading faster than one frame per frame", "[dsp][interp]") {
  const SincInterpolator sinc(16);
  CHECK(sinc.bandForRatio(0.5f) == 0);
  CHECK(sinc.bandForRatio(1.0f) == 0);
  CHECK(sinc.bandForRatio(1.1f) == 1);
  CHECK(sinc.bandForRatio(2.0f) == 4);
  CHECK(sinc.bandForRatio(100.0f) == SincInterpolator::kBands - 1);
  for (int band = 1; band < SincInterpolator::kBands; ++band)
    REQUIRE(SincInterpolator::bandCutoff(band) <= 1.0 / std::exp2((band - 0.001) / 4.0));

  // At ratio 2 output Nyquist is 0.25 cycles per input frame: content at 0.4 would
  // alias and must be attenuated; content at 0.05 must pass.
  const auto high = [](double x) { return sine(x, 0.4); };
  const auto low = [](double x) { return sine(x, 0.05); };
  const auto vh = frames(200, high), vl = frames(200, low);
  double peakHigh = 0.0, errLow = 0.0;
  for (int i = 0; i < 200; ++i) {
    const double x = static_cast<double>(i) + 0.3;
    peakHigh = std::max(peakHigh, std::abs(static_cast<double>(sinc.interpolate(at(vh, i), 0.3f, 2.0f))));
    errLow = std::max(errLow, std::abs(static_cast<double>(sinc.interpolate(at(vl, i), 0.3f, 2.0f)) - low(x)));
  }
  CHECK(peakHigh < 0.01);  // below -40 dB
  CHECK(errLow < 0.01);
}

TEST_CASE("The block interpolators give the single-frame functions' values, bit for bit", "[dsp][interp]") {
  // Noisy data, positions that step forwards, back and far, at every length 0..41
  // (whole 8- and 4-frame vector runs and every tail) and from every start offset.
  std::vector<float> data(600);
  uint32_t seed = 12345u;
  for (float& v : data) {
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<float>(static_cast<int32_t>(seed)) / 2147483648.0f;
  }
  const float* src = data.data() + kGuard;
  std::vector<int32_t> index(48);
  std::vector<float> frac(48), out(48), taps(4 * 48);
  int mismatches = 0, checked = 0;
  for (int frames = 0; frames <= 41; ++frames) {
    for (int i = 0; i < frames; ++i) {
      seed = seed * 1664525u + 1013904223u;
      index[static_cast<std::size_t>(i)] = static_cast<int32_t>((seed >> 8) % 500u);
      frac[static_cast<std::size_t>(i)] = static_cast<float>(seed & 0xffu) / 256.0f;
    }
    interpolateHermiteBlock(src, index.data(), frac.data(), out.data(), frames, taps.data());
    for (int i = 0; i < frames; ++i, ++checked) {
      const auto k = static_cast<std::size_t>(i);
      if (out[k] != interpolateHermite(src + index[k], frac[k])) ++mismatches;
    }
    interpolateLinearBlock(src, index.data(), frac.data(), out.data(), frames, taps.data());
    for (int i = 0; i < frames; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (out[k] != interpolateLinear(src + index[k], frac[k])) ++mismatches;
    }
  }
  CHECK(checked == 41 * 42 / 2);
  CHECK(mismatches == 0);
}

}  // namespace interpolator_tests
