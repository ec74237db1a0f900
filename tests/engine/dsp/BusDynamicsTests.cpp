// The lofi, disto, comp, gate and limiter processors (engine/dsp): exact values of
// their curves and steady states.
#include <cmath>
#include <numbers>
#include <set>
#include <vector>

#include "catch.h"
#include "engine/dsp/Compressor.h"
#include "engine/dsp/Disto.h"
#include "engine/dsp/Gate.h"
#include "engine/dsp/Limiter.h"
#include "engine/dsp/Lofi.h"

namespace bus_dynamics_tests {

using namespace spindle::engine::dsp;

namespace {

constexpr double kRate = 48000.0;

struct Stereo {
  std::vector<float> left, right;
  Stereo(size_t frames, float l, float r) : left(frames, l), right(frames, r) {}
};

// Runs `process(left, right, frames)` over the buffers in blocks of 256.
template <typename F>
void inBlocks(Stereo& s, F&& process) {
  for (size_t at = 0; at < s.left.size(); at += 256) {
    const int n = static_cast<int>(std::min<size_t>(256, s.left.size() - at));
    process(s.left.data() + at, s.right.data() + at, n);
  }
}

}  // namespace

TEST_CASE("lofi bitred rounds to steps of 1 / (0.75 * (101 - bitred))", "[dsp][bus-effects]") {
  CHECK(Lofi::bitStep(0.0f) == 0.0f);
  CHECK(Lofi::bitStep(50.0f) == Approx(1.0 / 38.25));
  CHECK(Lofi::bitStep(100.0f) == Approx(1.0 / 0.75));
  Lofi lofi;
  lofi.setup(kRate);
  // A slow ramp: the held values between the smoothed edges are multiples of the step.
  Stereo s(48000, 0.0f, 0.0f);
  for (size_t i = 0; i < s.left.size(); ++i) s.left[i] = s.right[i] = static_cast<float>(i) / 48000.0f * 0.5f;
  inBlocks(s, [&](float* l, float* r, int n) { lofi.process(l, r, n, 50.0f, 0.0f); });
  const double step = 1.0 / 38.25;
  std::set<long> plateaus;
  for (size_t i = 1; i < s.left.size(); ++i) {
    if (s.left[i] != s.left[i - 1]) continue;
    const double k = static_cast<double>(s.left[i]) / step;
    CHECK(k == Approx(std::round(k)).margin(1e-4));
    plateaus.insert(std::lround(k));
  }
  CHECK(plateaus.size() == 20);  // 0 .. 0.5 * 38.25 = 19.1 rounds to 0..19 steps
  // A constant settles to its rounded value exactly: 0.1 * 38.25 = 3.825 -> 4 steps.
  Stereo c(1000, 0.1f, -0.1f);
  lofi.setup(kRate);
  inBlocks(c, [&](float* l, float* r, int n) { lofi.process(l, r, n, 50.0f, 0.0f); });
  CHECK(c.left.back() == Approx(4.0 / 38.25).epsilon(1e-5));
  CHECK(c.right.back() == Approx(-4.0 / 38.25).epsilon(1e-5));
}

TEST_CASE("lofi decim holds each value for the frames its curve gives", "[dsp][bus-effects]") {
  CHECK(Lofi::heldFrames(0.0f, kRate) == 1.0);
  CHECK(Lofi::heldFrames(2.0f, kRate) == 1.0);  // under a frame: every frame renewed
  CHECK(Lofi::heldFrames(50.0f, kRate) == Approx(30.24).epsilon(0.001));
  CHECK(Lofi::heldFrames(100.0f, kRate) == Approx(205.6).epsilon(0.002));
  // decim 50 on a slow ramp: each held value is on average (30.24 - 1) / 2 frames old,
  // so the output trails the input (past the smoothing's kDelay) by 14.62 frames.
  Lofi lofi;
  lofi.setup(kRate);
  Stereo s(48000, 0.0f, 0.0f);
  for (size_t i = 0; i < s.left.size(); ++i) s.left[i] = s.right[i] = static_cast<float>(i) / 48000.0f;
  inBlocks(s, [&](float* l, float* r, int n) { lofi.process(l, r, n, 0.0f, 50.0f); });
  double lag = 0.0;
  for (size_t i = 1000; i < 47000; ++i) lag += static_cast<double>(i - Lofi::kDelay) - 48000.0 * static_cast<double>(s.left[i]);
  CHECK(lag / 46000.0 == Approx((30.24 - 1.0) / 2.0).margin(0.3));
}

TEST_CASE("disto: the tone cutoff, the two curves and dry/wet", "[dsp][bus-effects]") {
  CHECK(Disto::toneCutoff(100.0f) == Approx(440.0 * std::exp2(60.0 / 12.0)));  // 14080 Hz
  CHECK(Disto::toneCutoff(50.0f) == Approx(440.0 * std::exp2(6.0 / 12.0)));    // 622 Hz
  CHECK(Disto::curve(0.0f, 0.0f, false) == Approx(1.0f));
  CHECK(Disto::curve(0.0f, 0.0f, true) == Approx(-1.0f));
  CHECK(Disto::curve(0.25f, 100.0f, false) == Approx(2.0 / (1.0 + std::exp(-22.0 * 0.25))));
  Disto disto;
  disto.setup(kRate);
  // wet 0 passes the bus through, whatever the depth.
  Stereo s(2048, 0.3f, -0.2f);
  inBlocks(s, [&](float* l, float* r, int n) { disto.process(l, r, n, 100.0f, 100.0f, 2, 1.0f, 1.0f, 0.0f, 0.0f); });
  CHECK(s.left.back() == 0.3f);
  CHECK(s.right.back() == -0.2f);
  // At depth 100 a 1 kHz sine of 0.5 swings between the curves' ends, +-1 after the
  // DC blocker: nearly a square of amplitude 1 (RMS over 0.9, peak near 1).
  Stereo sine(9600, 0.0f, 0.0f);
  for (size_t i = 0; i < sine.left.size(); ++i)
    sine.left[i] = sine.right[i] = 0.5f * static_cast<float>(std::sin(2.0 * std::numbers::pi * 1000.0 * static_cast<double>(i) / kRate));
  disto.setup(kRate);
  inBlocks(sine, [&](float* l, float* r, int n) { disto.process(l, r, n, 100.0f, 100.0f, 1, 1.0f, 1.0f, 1.0f, 1.0f); });
  double sum = 0.0;
  float peak = 0.0f;
  for (size_t i = 4800; i < 9600; ++i) {
    sum += static_cast<double>(sine.left[i]) * static_cast<double>(sine.left[i]);
    peak = std::max(peak, std::fabs(sine.left[i]));
  }
  CHECK(std::sqrt(sum / 4800.0) > 0.9);
  CHECK(peak == Approx(1.0).margin(0.1));
}

TEST_CASE("comp: a steady level t dB over the threshold comes out t / ratio over it", "[dsp][bus-effects]") {
  CompressorSettings s;
  s.ratio = 4.0f;
  s.thresholdDb = -20.0f;
  CHECK(Compressor::reductionDb(-6.0206f, s) == Approx(-0.75 * 13.9794).epsilon(1e-4));
  CHECK(Compressor::reductionDb(-25.0f, s) == 0.0f);
  Compressor comp;
  comp.setup(kRate);
  // 0.5 on the left (-6.02 dB: reduced by 10.48 dB), 0.1 on the right (at the
  // threshold: untouched), unlinked.
  Stereo x(9600, 0.5f, 0.1f);
  inBlocks(x, [&](float* l, float* r, int n) { comp.process(l, r, n, s); });
  CHECK(x.left.back() == Approx(0.5 * std::pow(10.0, -0.75 * 13.9794 / 20.0)).epsilon(1e-3));
  CHECK(x.right.back() == Approx(0.1).epsilon(1e-4));
  // Linked, both take the reduction of 0.6; comp_gain +6 dB raises the input first.
  s.linked = true;
  comp.setup(kRate);
  Stereo y(9600, 0.5f, 0.1f);
  inBlocks(y, [&](float* l, float* r, int n) { comp.process(l, r, n, s); });
  const double g = std::pow(10.0, -0.75 * (20.0 * std::log10(0.6) + 20.0) / 20.0);
  CHECK(y.left.back() == Approx(0.5 * g).epsilon(1e-3));
  CHECK(y.right.back() == Approx(0.1 * g).epsilon(1e-3));
  s.linked = false;
  s.gainDb = 6.0206f;
  comp.setup(kRate);
  Stereo z(9600, 0.25f, 0.25f);
  inBlocks(z, [&](float* l, float* r, int n) { comp.process(l, r, n, s); });
  CHECK(z.left.back() == Approx(0.5 * std::pow(10.0, -0.75 * 13.9794 / 20.0)).epsilon(1e-3));
}

TEST_CASE("gate: open above the threshold, closed below, closed by its manual control", "[dsp][bus-effects]") {
  GateSettings s;
  s.thresholdDb = -20.0f;
  Gate gate;
  gate.setup(kRate);
  Stereo x(9600, 0.2f, 0.05f);  // -14 dB passes, -26 dB is shut
  inBlocks(x, [&](float* l, float* r, int n) { gate.process(l, r, n, s); });
  CHECK(x.left.back() == Approx(0.2).epsilon(1e-4));
  CHECK(std::fabs(x.right.back()) < 1e-6f);
  // Linked: |0.05| + |0.06| = 0.11, over 0.1: both open.
  s.linked = true;
  gate.setup(kRate);
  Stereo y(9600, 0.05f, 0.06f);
  inBlocks(y, [&](float* l, float* r, int n) { gate.process(l, r, n, s); });
  CHECK(y.left.back() == Approx(0.05).epsilon(1e-4));
  s.linked = false;
  s.manual = 50.0f;
  gate.setup(kRate);
  Stereo z(9600, 0.2f, 0.2f);
  inBlocks(z, [&](float* l, float* r, int n) { gate.process(l, r, n, s); });
  CHECK(z.left.back() == Approx(0.1).epsilon(1e-4));
  s.manual = 100.0f;
  Stereo shut(48000, 0.2f, 0.2f);  // the gain falls from 0.5 with the 50 ms release
  inBlocks(shut, [&](float* l, float* r, int n) { gate.process(l, r, n, s); });
  CHECK(std::fabs(shut.left.back()) < 1e-6f);
}

TEST_CASE("limiter: holds a sine over full scale to 1, leaves one under it alone", "[dsp][bus-effects]") {
  Limiter limiter;
  limiter.setup(kRate);
  Stereo x(48000, 0.0f, 0.0f);
  for (size_t i = 0; i < x.left.size(); ++i) {
    const float s = static_cast<float>(std::sin(2.0 * std::numbers::pi * 100.0 * static_cast<double>(i) / kRate));
    x.left[i] = 2.0f * s;
    x.right[i] = 0.5f * s;
  }
  inBlocks(x, [&](float* l, float* r, int n) { limiter.process(l, r, n); });
  float left = 0.0f, right = 0.0f;
  for (size_t i = 24000; i < 48000; ++i) {
    left = std::max(left, std::fabs(x.left[i]));
    right = std::max(right, std::fabs(x.right[i]));
  }
  CHECK(left == Approx(1.0).epsilon(0.005));
  CHECK(right == Approx(0.5).epsilon(0.001));
}

}  // namespace bus_dynamics_tests
