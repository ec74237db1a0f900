// Envelope stage shapes (ARIA *_shape) and decay/release timing (*_zero): levels
// against the curve B(u) = (exp(-s u) - 1) / (exp(-s) - 1) at chosen times, in dB.
#include <cmath>
#include <vector>

#include "catch.h"
#include "engine/mod/Envelope.h"

namespace envelope_shape_tests {

using spindle::EnvelopeParams;
using spindle::engine::mod::Envelope;

namespace {

constexpr double kRate = 48000.0;

double curve(double shape, double u) { return shape == 0.0 ? u : std::expm1(-shape * u) / std::expm1(-shape); }
double dB(double level) { return 20.0 * std::log10(level); }

std::vector<float> render(Envelope& env, double seconds) {
  std::vector<float> out(static_cast<std::size_t>(std::lround(seconds * kRate)));
  env.process(out.data(), static_cast<int>(out.size()));
  return out;
}

float at(const std::vector<float>& v, double seconds) { return v[static_cast<std::size_t>(std::lround(seconds * kRate))]; }

double firstBelow(const std::vector<float>& v, double level) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (static_cast<double>(v[i]) <= level) return static_cast<double>(i) / kRate;
  return -1.0;
}

// Holds at 100 % for `hold` seconds, then releases; returns the release.
std::vector<float> releaseFromFull(const EnvelopeParams& p, double seconds) {
  Envelope env;
  env.setup(p, 1.0f, kRate);
  env.start();
  render(env, 0.01);
  env.release();
  return render(env, seconds);
}

}  // namespace

TEST_CASE("ampeg's default release falls 90 dB along its exponential, as ARIA's -10.3616 says", "[dsp][envelope]") {
  EnvelopeParams p = EnvelopeParams::amplitude();
  p.release = 0.5f;
  const auto v = releaseFromFull(p, 0.6);
  for (double t : {0.05, 0.1, 0.2, 0.3, 0.4, 0.45}) {
    INFO("t = " << t);
    CHECK(dB(at(v, t)) == Approx(dB(curve(-10.3616, 1.0 - t / 0.5))).margin(0.1));
  }
  // Nearly linear in dB: -18 dB after a fifth of the release, -36 dB after two fifths.
  CHECK(dB(at(v, 0.1)) == Approx(-18.0).margin(0.2));
  CHECK(dB(at(v, 0.2)) == Approx(-36.0).margin(0.3));
  CHECK(firstBelow(v, 0.0f) == Approx(0.5).margin(0.001));
}

TEST_CASE("Stage shapes bend under the line below 0 and over it above 0", "[dsp][envelope]") {
  for (float shape : {-3.0f, 3.0f, 8.0f}) {
    INFO("shape " << shape);
    EnvelopeParams p;
    p.attack = 0.2f;
    p.attackShape = shape;
    p.release = 0.4f;
    p.releaseShape = shape;
    Envelope env;
    env.setup(p, 1.0f, kRate);
    env.start();
    const auto a = render(env, 0.3);
    for (double t : {0.05, 0.1, 0.15}) CHECK(at(a, t) == Approx(curve(shape, t / 0.2)).margin(1e-4));
    CHECK(at(a, 0.2) == 1.0f);
    env.release();
    const auto r = render(env, 0.5);
    for (double t : {0.1, 0.2, 0.3}) CHECK(at(r, t) == Approx(curve(shape, 1.0 - t / 0.4)).margin(1e-4));
    CHECK(firstBelow(r, 0.0f) == Approx(0.4).margin(0.001));
  }
  // Below 0 the attack starts slowly: at half time it is under half way.
  EnvelopeParams p;
  p.attack = 0.2f;
  p.attackShape = -3.0f;
  Envelope env;
  env.setup(p, 1.0f, kRate);
  env.start();
  CHECK(at(render(env, 0.2), 0.1) == Approx(0.1824).margin(1e-3));
}

TEST_CASE("decay_zero=1 times the decay from 1 to 0 and stops at sustain; 0 times it to sustain", "[dsp][envelope]") {
  EnvelopeParams p = EnvelopeParams::amplitude();
  p.decay = 1.0f;
  p.sustain = 10.0f;  // -20 dB
  Envelope env;
  env.setup(p, 1.0f, kRate);
  env.start();
  auto v = render(env, 1.5);
  // The -90 dB curve crosses -20 dB after 7/9... of its way: u = ln(1 + 0.1 (e^s' - 1)) / s'.
  const double reach = 1.0 - std::log1p(0.1 * std::expm1(10.3616)) / 10.3616;
  CHECK(reach == Approx(0.2222).margin(1e-3));
  CHECK(firstBelow(v, 0.1f) == Approx(reach).margin(0.001));
  CHECK(at(v, 0.1) == Approx(curve(-10.3616, 0.9)).margin(1e-5));
  CHECK(v.back() == 0.1f);

  p.decayZero = 0.0f;
  env.setup(p, 1.0f, kRate);
  env.start();
  v = render(env, 1.5);
  CHECK(firstBelow(v, 0.1f) == Approx(1.0).margin(0.001));
  CHECK(at(v, 0.5) == Approx(0.1 + 0.9 * curve(-10.3616, 0.5)).margin(1e-5));
}

TEST_CASE("release_zero=1 enters the 1 -> 0 curve at the level the note-off found", "[dsp][envelope]") {
  EnvelopeParams p;  // linear stages
  p.sustain = 50.0f;
  p.release = 0.4f;
  auto v = releaseFromFull(p, 0.5);
  CHECK(v[0] == 0.5f);
  CHECK(firstBelow(v, 0.0f) == Approx(0.4).margin(0.001));  // release_zero=0: the whole time
  CHECK(at(v, 0.2) == Approx(0.25f).margin(1e-4));

  p.releaseZero = 1.0f;
  v = releaseFromFull(p, 0.5);
  CHECK(v[0] == Approx(0.5f).margin(1e-4));
  CHECK(firstBelow(v, 0.0f) == Approx(0.2).margin(0.001));  // the lower half of a 0.4 s ramp
  CHECK(at(v, 0.1) == Approx(0.25f).margin(1e-4));
}

}  // namespace envelope_shape_tests
