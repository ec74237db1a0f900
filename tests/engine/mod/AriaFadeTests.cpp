// ARIA's level opcodes, measured on a held 0.5 sample (a centred mono one plays at 0.5 on
// both sides): the curve of off_mode=time (off_curve, off_shape), amp_veltrack_random,
// pan_law and the release trigger's decay segments (rt_decayN, rt_decayN_time).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace aria_fade_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr int64_t kChokeAt = 4800;

std::unique_ptr<Renderer> renderText(const std::string& text, std::vector<TimedEvent> events, int64_t frames) {
  SfzProgram p(text, constant(0.5f, 96000));
  REQUIRE(p.warnings.empty());
  events.insert(events.begin(), cc(0, 7, 127));
  return play(p, events, frames);
}

// Note 60's region (group 1) choked by note 62's silent one (group 2) at kChokeAt; the
// level of the fade u = 0.5 of the way through its 0.1 s, against the level before it.
double halfwayLevel(const std::string& fade) {
  const std::string text = "<region> sample=s.wav key=60 amp_veltrack=0 group=1 off_by=2 off_mode=time off_time=0.1 " +
                           fade + "\n<region> sample=s.wav key=62 amplitude=0 group=2\n";
  const auto r = renderText(text, {noteOn(0, 60), noteOn(kChokeAt, 62)}, 19200);
  REQUIRE(r->left[kChokeAt - 1] == Approx(0.5f));
  return static_cast<double>(r->left[kChokeAt + 2400]) / 0.5;
}

// ARIA's curve 10 of shape c, normalised to end at 0: (e^(c u) - e^c) / (1 - e^c).
double ariaCurve(double c, double u) { return (std::exp(c * u) - std::exp(c)) / (1.0 - std::exp(c)); }

}  // namespace

TEST_CASE("off_curve=10 and off_shape: the off_time fade is ARIA's exponential; unset, linear", "[engine][aria]") {
  CHECK(halfwayLevel("") == Approx(0.5).margin(0.002));
  CHECK(halfwayLevel("off_curve=0") == Approx(0.5).margin(0.002));
  CHECK(halfwayLevel("off_curve=10") == Approx(ariaCurve(-10.3616, 0.5)).epsilon(0.03));  // -45 dB
  CHECK(halfwayLevel("off_shape=-5") == Approx(ariaCurve(-5.0, 0.5)).epsilon(0.02));      // a lone shape: curve 10
  CHECK(halfwayLevel("off_curve=10 off_shape=-5") == Approx(ariaCurve(-5.0, 0.5)).epsilon(0.02));
  CHECK(halfwayLevel("off_curve=1 off_shape=-5") == Approx(0.5).margin(0.002));  // other curves fade linearly
}

TEST_CASE("amp_veltrack_random: each note's amp_veltrack moves by a draw in +- its percent", "[engine][aria]") {
  // amp_veltrack 50 +- 50 at velocity 64: the gain is between the curve's (64/127)^2 at
  // 100 % and 1 at 0 %.
  std::vector<TimedEvent> events;
  for (int k = 0; k < 16; ++k) {
    events.push_back(noteOn(k * 2400, 60, 64));
    events.push_back(noteOff(k * 2400 + 1200, 60));
  }
  const std::string text = "<region> sample=s.wav amp_veltrack=50 amp_veltrack_random=50 ampeg_release=0.001\n";
  const auto r = renderText(text, events, 16 * 2400);
  const double curve = (64.0 / 127.0) * (64.0 / 127.0);
  std::set<float> levels;
  for (int k = 0; k < 16; ++k) {
    const double level = static_cast<double>(r->left[static_cast<size_t>(k * 2400 + 600)]) / 0.5;
    CAPTURE(k);
    CHECK(level >= curve - 1e-4);
    CHECK(level <= 1.0 + 1e-4);
    levels.insert(static_cast<float>(level));
  }
  CHECK(levels.size() >= 12);
  CHECK(*levels.rbegin() - *levels.begin() > 0.3f);
  // Without it, every note plays at amp_veltrack 50: 1 + 0.5 (c - 1).
  const auto fixed = renderText("<region> sample=s.wav amp_veltrack=50\n", {noteOn(0, 60, 64)}, 1200);
  CHECK(static_cast<double>(fixed->left[600]) / 0.5 == Approx(1.0 + 0.5 * (curve - 1.0)).epsilon(1e-4));
}

TEST_CASE("pan_law: mma pans with constant power; balance only lowers the far side", "[engine][aria]") {
  const auto sides = [](const std::string& opcodes) {
    const auto r = renderText("<region> sample=s.wav amp_veltrack=0 " + opcodes + "\n", {noteOn(0, 60)}, 1200);
    return std::pair{static_cast<double>(r->left[600]), static_cast<double>(r->right[600])};
  };
  const double nearGain = std::sqrt(2.0) * std::sin(0.375 * 3.14159265358979), farGain = std::sqrt(2.0) * std::cos(0.375 * 3.14159265358979);
  for (const std::string law : {"", "pan_law=mma"}) {
    const auto [l, rr] = sides("pan=50 " + law);
    CHECK(l == Approx(0.5 * farGain).epsilon(1e-4));
    CHECK(rr == Approx(0.5 * nearGain).epsilon(1e-4));
  }
  const auto [l, rr] = sides("pan=50 pan_law=balance");
  CHECK(l == Approx(0.5 * farGain).epsilon(1e-4));
  CHECK(rr == Approx(0.5).epsilon(1e-4));
  const auto [l2, r2] = sides("pan=-50 pan_law=balance");
  CHECK(l2 == Approx(0.5).epsilon(1e-4));
  CHECK(r2 == Approx(0.5 * farGain).epsilon(1e-4));
  const auto [l3, r3] = sides("pan_law=balance");
  CHECK(l3 == Approx(0.5).epsilon(1e-6));
  CHECK(r3 == Approx(0.5).epsilon(1e-6));
}

TEST_CASE("rt_decayN, rt_decayN_time: the release trigger's decay segments, then rt_decay", "[engine][aria]") {
  // The release region's level in dB just after note 60, held `held` seconds, ends.
  const auto decayDb = [](const std::string& opcodes, double held) {
    const auto off = static_cast<int64_t>(held * 48000.0);
    const auto r = renderText("<region> sample=s.wav amp_veltrack=0 trigger=release " + opcodes + "\n",
                              {noteOn(0, 60), noteOff(off, 60)}, off + 1200);
    return -20.0 * std::log10(static_cast<double>(r->left[static_cast<size_t>(off + 600)]) / 0.5);
  };
  CHECK(decayDb("rt_decay=20", 0.5) == Approx(10.0).margin(0.01));
  CHECK(decayDb("rt_decay1=6 rt_decay1_time=0.5 rt_decay=20", 0.25) == Approx(1.5).margin(0.01));
  CHECK(decayDb("rt_decay1=6 rt_decay1_time=0.5 rt_decay=20", 1.0) == Approx(3.0 + 10.0).margin(0.01));
  CHECK(decayDb("rt_decay1=6 rt_decay1_time=0.5 rt_decay2=2 rt_decay=20", 1.0) == Approx(3.0 + 1.0).margin(0.01));
  CHECK(decayDb("rt_decay1=6 rt_decay1_time=0.25 rt_decay2=2 rt_decay2_time=0.25 rt_decay=20", 1.0) ==
        Approx(1.5 + 0.5 + 10.0).margin(0.01));
}

}  // namespace aria_fade_tests
