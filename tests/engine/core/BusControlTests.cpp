// The controls of a bus effect's parameters beyond their depth: the curve a controller
// goes through (name_curveccN), the steps its contribution moves in (name_stepccN) and
// the smoothing of the parameter it moves (name_smoothccN), on lofi's bitred and decim,
// one BusEffectState run as a part's bus runs it. Measured: bitred on a constant 0.5
// (the rounded level, Lofi::bitStep), decim on a slow ramp (the output trails the input
// by (heldFrames - 1) / 2 frames, Lofi::heldFrames).
#include <cmath>
#include <vector>

#include "catch.h"
#include "engine/mod/BusControls.h"
#include "engine/effects/BusEffectState.h"
#include "engine/dsp/Lofi.h"

namespace bus_control_tests {

using namespace spindle;
using spindle::engine::BusEffectState;
using spindle::engine::dsp::Lofi;

namespace {

constexpr double kRate = 48000.0;
constexpr size_t kBlock = 256;

struct Move {
  size_t frame;  // a multiple of kBlock
  int cc;
  float value;  // 0..1
};

// `input` on both channels through a lofi whose `param` has one control on CC 1
// (depth 100, then `curve`, `step`, `smoothMs`), CC 1 at `start`, then `moves`.
std::vector<float> lofi(BusParam param, const std::vector<float>& input, float start, BusParamCc control,
                        std::vector<Move> moves = {}) {
  BusEffect e;
  e.type = BusEffectType::Lofi;
  control.param = param;
  control.cc = 1;
  control.depth = 100.0f;
  e.controllers.push_back(control);
  engine::mod::CurveTable curves;
  engine::mod::ControllerState cc;
  cc.set(1, start);
  auto state = std::make_unique<BusEffectState>();
  state->allocate(e, nullptr, &curves);
  state->start(e, &cc, kRate);
  std::vector<float> left = input, right = input;
  for (size_t at = 0; at < left.size(); at += kBlock) {
    for (const Move& m : moves)
      if (m.frame == at) cc.set(m.cc, m.value);
    const int n = static_cast<int>(std::min(kBlock, left.size() - at));
    state->process(e, &cc, left.data() + at, right.data() + at, n);
  }
  return left;
}

// The level a constant 0.5 comes out at under bitred b.
float rounded(float bitred) {
  const float step = Lofi::bitStep(bitred);
  return step > 0.0f ? std::floor(0.5f + 0.5f / step) * step : 0.5f;
}

std::vector<float> ramp(size_t frames) {
  std::vector<float> v(frames);
  for (size_t i = 0; i < frames; ++i) v[i] = static_cast<float>(static_cast<double>(i) / kRate);
  return v;
}

// Frames the decimated ramp trails the input over [from, to), past the smoothing's delay.
double lag(const std::vector<float>& out, size_t from, size_t to) {
  double sum = 0.0;
  for (size_t i = from; i < to; ++i) sum += static_cast<double>(i - Lofi::kDelay) - kRate * static_cast<double>(out[i]);
  return sum / static_cast<double>(to - from);
}
double heldLag(float decim) { return (Lofi::heldFrames(decim, kRate) - 1.0) / 2.0; }

BusParamCc with(uint8_t curve, float step, float smoothMs) {
  BusParamCc c;
  c.curve = curve;
  c.step = step;
  c.smoothMs = smoothMs;
  return c;
}

}  // namespace

TEST_CASE("bitred_curveccN and decim_curveccN: the controller goes through the curve", "[engine][effects][lofi]") {
  const std::vector<float> half(4800, 0.5f);
  // Curve 2 (inverted): CC 1 at 0 is bitred 100, which rounds 0.5 down to 0; linear, 0 passes it.
  CHECK(lofi(BusParam::Bitred, half, 0.0f, with(2, 0, -1))[4000] == Approx(rounded(100.0f)).margin(1e-5));
  CHECK(rounded(100.0f) == 0.0f);
  CHECK(lofi(BusParam::Bitred, half, 0.0f, with(0, 0, -1))[4000] == Approx(0.5f).margin(1e-5));
  // Curve 4 (x squared) at 90/127: decim 50.2 instead of 70.9.
  const float x = 90.0f / 127.0f;
  const double squared = lag(lofi(BusParam::Decim, ramp(48000), x, with(4, 0, -1)), 1000, 47000);
  CHECK(squared == Approx(heldLag(100.0f * x * x)).margin(0.3));
  const double linear = lag(lofi(BusParam::Decim, ramp(48000), x, with(0, 0, -1)), 1000, 47000);
  CHECK(linear == Approx(heldLag(100.0f * x)).margin(0.5));
  CHECK(linear > squared + 5.0);
}

TEST_CASE("bitred_stepccN and decim_stepccN: the contribution moves in whole steps", "[engine][effects][lofi]") {
  // CC 1 at 100/127: 78.7 of depth 100; steps of 30 make it 60.
  const float x = 100.0f / 127.0f;
  const std::vector<float> half(4800, 0.5f);
  CHECK(lofi(BusParam::Bitred, half, x, with(0, 30, -1))[4000] == Approx(rounded(60.0f)).margin(1e-5));
  CHECK(lofi(BusParam::Bitred, half, x, with(0, 0, -1))[4000] == Approx(rounded(100.0f * x)).margin(1e-5));
  CHECK(std::fabs(rounded(60.0f) - rounded(100.0f * x)) > 0.005f);
  // Steps of 25 make it 75 for decim.
  CHECK(lag(lofi(BusParam::Decim, ramp(48000), x, with(0, 25, -1)), 1000, 47000) == Approx(heldLag(75.0f)).margin(0.5));
}

TEST_CASE("bitred_smoothccN and decim_smoothccN: the parameter follows in its own time", "[engine][effects][lofi]") {
  // CC 1 from 0 to 1 at frame 4864: bitred rises 0 -> 100 along 1 - exp(-t / T) and
  // rounds 0.5 to 0 once past 99.67 (steps of more than 1 / 0.75 ... under one step),
  // that is T ln 300 later: 2738 frames at the default 10 ms, 27378 at smoothcc 100.
  const std::vector<float> half(48000, 0.5f);
  const auto silentFrom = [](const std::vector<float>& out) {
    for (size_t i = 4864; i < out.size(); ++i)
      if (std::fabs(out[i]) < 1e-6f) return static_cast<double>(i - 4864);
    return -1.0;
  };
  const std::vector<Move> up = {{4864, 1, 1.0f}};
  const double quick = silentFrom(lofi(BusParam::Bitred, half, 0.0f, with(0, 0, -1), up));
  const double slow = silentFrom(lofi(BusParam::Bitred, half, 0.0f, with(0, 0, 100), up));
  CHECK(quick == Approx(0.010 * kRate * std::log(300.0)).margin(2 * 32 + Lofi::kDelay));
  CHECK(slow == Approx(0.100 * kRate * std::log(300.0)).margin(2 * 32 + Lofi::kDelay));
  // decim: 0.15 s after the move (75 ms before it in frames 0..4864), smoothcc 100 has
  // brought it to 100 (1 - exp(-1.5)) = 77.7, the default long since to 100.
  const std::vector<Move> at = {{4864, 1, 1.0f}};
  const auto out = lofi(BusParam::Decim, ramp(48000), 0.0f, with(0, 0, 100), at);
  const double mid = lag(out, 4864 + 6000, 4864 + 8400);  // 0.125 .. 0.175 s: decim 71.3 .. 82.6
  CHECK(mid > heldLag(71.0f));
  CHECK(mid < heldLag(83.0f));
  const auto fast = lofi(BusParam::Decim, ramp(48000), 0.0f, with(0, 0, -1), at);
  CHECK(lag(fast, 4864 + 6000, 4864 + 30000) == Approx(heldLag(100.0f)).margin(1.5));
}

TEST_CASE("bus controls: value and smoothing by formula", "[engine][effects]") {
  engine::mod::CurveTable curves;
  BusParamCc c = with(4, 0, -1);
  c.depth = 60.0f;
  const float x = 64.0f / 127.0f;  // a point of the curve's 128
  CHECK(engine::mod::busControlValue(c, x, &curves) == Approx(60.0f * x * x));  // 15.24
  CHECK(engine::mod::busControlValue(c, x, nullptr) == Approx(60.0f * x));     // no table: linear
  c.step = 7.0f;
  CHECK(engine::mod::busControlValue(c, x, &curves) == Approx(14.0f));
  BusEffect e;
  e.controllers = {with(0, 0, 250), with(0, 0, 50), with(0, 0, 0)};
  e.controllers[0].param = e.controllers[1].param = BusParam::Decim;
  e.controllers[2].param = BusParam::Bitred;
  std::array<float, kBusParams> k{};
  engine::mod::busSmoothing(e, kRate, 32, 0.01, k);
  CHECK(k[static_cast<size_t>(BusParam::Decim)] == Approx(1.0 - std::exp(-32.0 / (0.25 * kRate))));  // the longest
  CHECK(k[static_cast<size_t>(BusParam::Bitred)] == 1.0f);  // 0 ms: at once
  CHECK(k[static_cast<size_t>(BusParam::Gain)] == Approx(1.0 - std::exp(-32.0 / (0.01 * kRate))));
}

}  // namespace bus_control_tests
