// Envelope: stage boundaries within 1 ms of nominal at 48 kHz, levels, vel2*, stage
// shapes and the *_zero timings.
#include <algorithm>
#include <cmath>
#include <vector>

#include "catch.h"
#include "engine/mod/Envelope.h"

namespace envelope_tests {

using spindle::EnvelopeParams;
using spindle::engine::mod::Envelope;

namespace {

constexpr double kRate = 48000.0;
constexpr double kTolSeconds = 0.001;

std::vector<float> render(Envelope& env, int frames) {
  std::vector<float> out(static_cast<std::size_t>(frames));
  env.process(out.data(), frames);
  return out;
}

// Seconds of the first frame at or after `from` where pred(level) holds; -1 if none.
template <typename Pred>
double firstTime(const std::vector<float>& v, Pred pred, std::size_t from = 0) {
  for (std::size_t i = from; i < v.size(); ++i)
    if (pred(v[i])) return static_cast<double>(i) / kRate;
  return -1.0;
}

float maxStep(const std::vector<float>& v) {
  float m = 0.0f;
  for (std::size_t i = 1; i < v.size(); ++i) m = std::max(m, std::abs(v[i] - v[i - 1]));
  return m;
}

// ampeg's defaults (decay and release shaped -10.3616), the decay timed to sustain.
EnvelopeParams dahdsr() {
  EnvelopeParams p = EnvelopeParams::amplitude();
  p.decayZero = 0.0f;
  p.delay = 0.1f;
  p.attack = 0.2f;
  p.hold = 0.05f;
  p.decay = 0.3f;
  p.sustain = 50.0f;
  p.release = 0.25f;
  return p;
}

}  // namespace

TEST_CASE("Envelope stage boundaries lie within 1 ms of nominal", "[dsp][envelope]") {
  Envelope env;
  env.setup(dahdsr(), 1.0f, kRate);
  env.start();
  const auto v = render(env, static_cast<int>(kRate));  // 1 s: ends in sustain

  CHECK(firstTime(v, [](float x) { return x > 0.0f; }) == Approx(0.1).margin(kTolSeconds));
  CHECK(firstTime(v, [](float x) { return x >= 0.5f; }) == Approx(0.2).margin(kTolSeconds));  // linear attack
  CHECK(firstTime(v, [](float x) { return x >= 1.0f; }) == Approx(0.3).margin(kTolSeconds));
  const std::size_t holdStart = static_cast<std::size_t>(0.3 * kRate);
  CHECK(firstTime(v, [](float x) { return x < 1.0f; }, holdStart) == Approx(0.35).margin(kTolSeconds));
  CHECK(firstTime(v, [](float x) { return x <= 0.5f; }, holdStart) == Approx(0.65).margin(kTolSeconds));
  CHECK(v.back() == 0.5f);
  CHECK(env.level() == 0.5f);
  CHECK_FALSE(env.finished());
  CHECK_FALSE(env.releasing());

  // Decay is monotone and never below sustain before its end (its last frames round to
  // sustain in float: the -90 dB curve's tail is under float's resolution at 0.5).
  const std::size_t decayEnd = static_cast<std::size_t>(0.65 * kRate);
  for (std::size_t i = holdStart + 1; i < decayEnd - 1; ++i) {
    REQUIRE(v[i] <= v[i - 1]);
    REQUIRE(v[i] >= 0.5f);
  }
  CHECK(v[decayEnd - 480] > 0.5f);
  // Exponential-looking: past the decay's midpoint the level is below the linear ramp.
  CHECK(v[static_cast<std::size_t>(0.5 * kRate)] < 0.75f);
}

TEST_CASE("Envelope release reaches 0 at release seconds, then finishes", "[dsp][envelope]") {
  Envelope env;
  env.setup(dahdsr(), 1.0f, kRate);
  env.start();
  render(env, static_cast<int>(kRate));
  env.release();
  CHECK(env.releasing());
  const auto v = render(env, static_cast<int>(0.5 * kRate));
  CHECK(v[0] == 0.5f);  // continues from the current level
  CHECK(firstTime(v, [](float x) { return x <= 0.0f; }) == Approx(0.25).margin(kTolSeconds));
  CHECK(firstTime(v, [](float x) { return x <= 0.25f; }) < 0.125);  // exponential-looking
  for (std::size_t i = 1; i < v.size(); ++i) REQUIRE(v[i] <= v[i - 1]);
  CHECK(env.finished());
  CHECK(env.level() == 0.0f);
  CHECK(v.back() == 0.0f);
}

TEST_CASE("Envelope release during attack starts from the current level", "[dsp][envelope]") {
  Envelope env;
  EnvelopeParams p = dahdsr();
  p.delay = 0.0f;
  env.setup(p, 1.0f, kRate);
  env.start();
  const auto attack = render(env, static_cast<int>(0.08 * kRate));  // 40 % of the attack
  const float before = env.level();
  CHECK(before == Approx(0.4f).margin(1e-3));
  env.release();
  const auto v = render(env, static_cast<int>(0.3 * kRate));
  CHECK(v[0] == Approx(before).margin(1e-6));
  CHECK(std::abs(v[0] - attack.back()) < 1e-3f);  // no click
  CHECK(firstTime(v, [](float x) { return x <= 0.0f; }) == Approx(0.25).margin(kTolSeconds));
  CHECK(env.finished());
}

TEST_CASE("Envelope release during delay ends at once", "[dsp][envelope]") {
  Envelope env;
  env.setup(dahdsr(), 1.0f, kRate);
  env.start();
  render(env, 100);
  env.release();
  CHECK(env.finished());
  const auto v = render(env, 10000);
  CHECK(*std::max_element(v.begin(), v.end()) == 0.0f);
}

TEST_CASE("Envelope skips zero-length stages without a click", "[dsp][envelope]") {
  Envelope env;
  EnvelopeParams p;  // all zero, sustain 100
  env.setup(p, 1.0f, kRate);
  env.start();
  auto v = render(env, 64);
  CHECK(v[0] == 1.0f);
  CHECK(v[63] == 1.0f);

  p.attack = 0.01f;
  p.decay = 0.1f;
  p.sustain = 30.0f;
  env.setup(p, 1.0f, kRate);
  env.start();
  v = render(env, static_cast<int>(0.2 * kRate));
  CHECK(maxStep(v) < 2.0f / (0.01f * 48000.0f));  // no jump larger than an attack step
  CHECK(firstTime(v, [](float x) { return x >= 1.0f; }) == Approx(0.01).margin(kTolSeconds));
  // Linear decay timed from 1 to 0 (decay_zero=1): 30 % is reached after 70 % of 0.1 s.
  CHECK(firstTime(v, [](float x) { return x <= 0.3f; }, 480) == Approx(0.08).margin(kTolSeconds));
}

TEST_CASE("Envelope with sustain 0 finishes when the decay reaches 0", "[dsp][envelope]") {
  Envelope env;
  EnvelopeParams p;
  p.decay = 0.2f;
  p.sustain = 0.0f;
  env.setup(p, 1.0f, kRate);
  env.start();
  const auto v = render(env, static_cast<int>(0.3 * kRate));
  CHECK(v[0] == 1.0f);
  CHECK(firstTime(v, [](float x) { return x <= 0.0f; }) == Approx(0.2).margin(kTolSeconds));
  CHECK(env.finished());
}

TEST_CASE("Envelope start percent begins the attack above 0", "[dsp][envelope]") {
  Envelope env;
  EnvelopeParams p;
  p.start = 20.0f;
  p.attack = 0.1f;
  env.setup(p, 1.0f, kRate);
  env.start();
  const auto v = render(env, static_cast<int>(0.2 * kRate));
  CHECK(v[0] == Approx(0.2f).margin(1e-6));
  CHECK(firstTime(v, [](float x) { return x >= 0.6f; }) == Approx(0.05).margin(kTolSeconds));
  CHECK(firstTime(v, [](float x) { return x >= 1.0f; }) == Approx(0.1).margin(kTolSeconds));
}

TEST_CASE("Envelope vel2* parameters scale with velocity", "[dsp][envelope]") {
  EnvelopeParams p;
  p.attack = 0.1f;
  p.vel2attack = 0.2f;
  p.decay = 0.1f;
  p.vel2decay = -0.05f;
  p.sustain = 80.0f;
  p.vel2sustain = -40.0f;
  p.depth = 100.0f;
  p.vel2depth = 1200.0f;
  p.release = 0.1f;
  p.vel2release = 0.1f;
  Envelope env;
  env.setup(p, 0.5f, kRate);  // attack 0.2 s, decay 0.075 s, sustain 60 %, release 0.15 s
  CHECK(env.depth() == Approx(700.0f));
  CHECK(env.sustainLevel() == Approx(0.6f));
  env.start();
  const auto v = render(env, static_cast<int>(0.5 * kRate));
  CHECK(firstTime(v, [](float x) { return x >= 1.0f; }) == Approx(0.2).margin(kTolSeconds));
  // Linear decay timed from 1 to 0: 60 % after 40 % of 0.075 s.
  CHECK(firstTime(v, [](float x) { return x <= 0.6f; }, 9600) == Approx(0.23).margin(kTolSeconds));
  CHECK(v.back() == Approx(0.6f).margin(1e-6));
  env.release();
  const auto r = render(env, static_cast<int>(0.3 * kRate));
  CHECK(firstTime(r, [](float x) { return x <= 0.0f; }) == Approx(0.15).margin(kTolSeconds));

  p.vel2sustain = 80.0f;  // clamps to 100 %
  env.setup(p, 1.0f, kRate);
  CHECK(env.sustainLevel() == 1.0f);
}

TEST_CASE("Envelope fast release fades linearly to 0", "[dsp][envelope]") {
  Envelope env;
  EnvelopeParams p;
  p.sustain = 80.0f;
  p.release = 2.0f;
  env.setup(p, 1.0f, kRate);
  env.start();
  render(env, 1000);
  env.release();
  render(env, 10);
  const float from = env.level();
  env.fastRelease(0.005f);
  CHECK(env.releasing());
  const auto v = render(env, 480);
  CHECK(v[0] == Approx(from).margin(1e-6));
  CHECK(v[120] == Approx(from * 0.5f).margin(1e-4));  // linear: half way at 2.5 ms
  CHECK(firstTime(v, [](float x) { return x <= 0.0f; }) == Approx(0.005).margin(kTolSeconds));
  CHECK(env.finished());
}

TEST_CASE("Envelope never started is finished and silent", "[dsp][envelope]") {
  Envelope env;
  CHECK(env.finished());
  env.setup(dahdsr(), 1.0f, kRate);
  CHECK(env.finished());
  const auto v = render(env, 256);
  CHECK(*std::max_element(v.begin(), v.end()) == 0.0f);
}

TEST_CASE("Envelope output does not depend on block size", "[dsp][envelope]") {
  Envelope a, b;
  a.setup(dahdsr(), 0.7f, kRate);
  b.setup(dahdsr(), 0.7f, kRate);
  a.start();
  b.start();
  const int total = static_cast<int>(1.2 * kRate);
  const auto whole = render(a, total);
  std::vector<float> pieces(static_cast<std::size_t>(total));
  int done = 0, block = 1;
  while (done < total) {
    const int n = std::min(block, total - done);
    b.process(pieces.data() + done, n);
    done += n;
    block = block * 7 % 997 + 1;
  }
  CHECK(whole == pieces);
}

}  // namespace envelope_tests
