// Lfo: frequency by zero crossings, delay, fade-in, depth, inactive cases.
#include <algorithm>
#include <cmath>
#include <vector>

#include "catch.h"
#include "engine/mod/Lfo.h"

namespace lfo_tests {

using spindle::LfoParams;
using spindle::engine::mod::Lfo;

namespace {

constexpr double kRate = 48000.0;

std::vector<float> render(Lfo& lfo, int frames) {
  std::vector<float> out(static_cast<std::size_t>(frames));
  lfo.process(out.data(), frames);
  return out;
}

// Frames (fractional, by linear interpolation) where the signal crosses 0 upwards.
std::vector<double> upCrossings(const std::vector<float>& v, std::size_t from) {
  std::vector<double> at;
  for (std::size_t i = from + 1; i < v.size(); ++i)
    if (v[i - 1] < 0.0f && v[i] >= 0.0f) at.push_back(static_cast<double>(i - 1) + static_cast<double>(v[i - 1] / (v[i - 1] - v[i])));
  return at;
}

float peak(const std::vector<float>& v, std::size_t from, std::size_t to) {
  float m = 0.0f;
  for (std::size_t i = from; i < to; ++i) m = std::max(m, std::abs(v[i]));
  return m;
}

}  // namespace

TEST_CASE("Lfo frequency measured by zero crossings", "[dsp][lfo]") {
  for (float freq : {0.5f, 5.0f, 37.0f}) {
    Lfo lfo;
    lfo.setup(LfoParams{0.0f, 0.0f, freq, 6.0f}, kRate);
    CHECK(lfo.active());
    lfo.start();
    const auto v = render(lfo, static_cast<int>(6 * kRate));
    const auto up = upCrossings(v, 0);
    REQUIRE(up.size() >= 2);
    const double period = (up.back() - up.front()) / static_cast<double>(up.size() - 1);
    CHECK(kRate / period == Approx(freq).epsilon(1e-4));
    CHECK(peak(v, 0, v.size()) == Approx(6.0f).epsilon(1e-3));
  }
}

TEST_CASE("Lfo starts at phase 0 after its delay", "[dsp][lfo]") {
  Lfo lfo;
  lfo.setup(LfoParams{0.25f, 0.0f, 4.0f, 50.0f}, kRate);
  lfo.start();
  const auto v = render(lfo, static_cast<int>(kRate));
  const std::size_t d = static_cast<std::size_t>(0.25 * kRate);
  CHECK(peak(v, 0, d + 1) == 0.0f);  // silent through the delay; sin(0) = 0 at frame d
  CHECK(v[d + 1] > 0.0f);           // rising from phase 0
  // A quarter period after the delay: the positive peak.
  CHECK(v[d + static_cast<std::size_t>(kRate / 16.0)] == Approx(50.0f).epsilon(1e-4));
}

TEST_CASE("Lfo fades its depth in linearly after the delay", "[dsp][lfo]") {
  Lfo lfo;
  const float freq = 10.0f;
  lfo.setup(LfoParams{0.1f, 0.4f, freq, -12.0f}, kRate);  // negative depth inverts
  lfo.start();
  const auto v = render(lfo, static_cast<int>(kRate));
  const double d = 0.1 * kRate, quarter = kRate / static_cast<double>(freq) / 4.0;
  // At each positive-sine peak k the output is depth * fade; fade = t / 0.4 s.
  for (int k = 0; k < 8; ++k) {
    const double frame = d + quarter + k * 4.0 * quarter;
    const double fade = std::min(1.0, (frame - d) / (0.4 * kRate));
    INFO("peak " << k);
    CHECK(v[static_cast<std::size_t>(frame)] == Approx(-12.0 * fade).margin(1e-3));
  }
  CHECK(peak(v, static_cast<std::size_t>(0.6 * kRate), v.size()) == Approx(12.0f).epsilon(1e-3));
}

TEST_CASE("Lfo is inactive and silent at freq 0 or depth 0", "[dsp][lfo]") {
  Lfo lfo;
  lfo.setup(LfoParams{0.0f, 0.0f, 0.0f, 10.0f}, kRate);
  CHECK_FALSE(lfo.active());
  lfo.start();
  auto v = render(lfo, 1000);
  CHECK(peak(v, 0, v.size()) == 0.0f);
  lfo.setup(LfoParams{0.0f, 0.0f, 5.0f, 0.0f}, kRate);
  CHECK_FALSE(lfo.active());
  lfo.start();
  v = render(lfo, 1000);
  CHECK(peak(v, 0, v.size()) == 0.0f);
}

TEST_CASE("Lfo amplitude does not drift over a long run, restart resets phase", "[dsp][lfo]") {
  Lfo lfo;
  lfo.setup(LfoParams{0.0f, 0.0f, 7.3f, 1.0f}, kRate);
  lfo.start();
  std::vector<float> block(256);
  float last = 0.0f;
  for (int b = 0; b < 60 * 48000 / 256; ++b) {  // one minute in 256-frame blocks
    lfo.process(block.data(), 256);
    last = std::max(last, peak(block, 0, block.size()));
  }
  CHECK(last == Approx(1.0f).epsilon(1e-4));
  lfo.start();
  const auto v = render(lfo, 2);
  CHECK(v[0] == 0.0f);
  CHECK(v[1] > 0.0f);
}

}  // namespace lfo_tests
