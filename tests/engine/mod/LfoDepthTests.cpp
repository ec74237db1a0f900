// Sources that hold an LFO's output (egN_/lfoN_depth_lfoX, _depthadd_lfoX), lfoN_smooth
// and its controller, lfoN_wave_onccX, egN_pan_curve and the delay effect's LFO
// (delay_lfofreq, delay_moddepth), measured on renders: vibrato
// in cents at the top of a 5 Hz LFO's cycle (0.05 s after each 0.2 s), pan as the ratio
// of the two sides.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace lfo_depth_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr int64_t kNoteAt = 480;
const std::string kPlain = "<region> sample=*sine amp_veltrack=0 loop_mode=no_loop ";

std::unique_ptr<Renderer> render(const std::string& opcodes, std::vector<std::pair<int, int>> ccs = {}) {
  SfzProgram p(kPlain + opcodes, sine(3000.0, kRate, 96000, 0.5f));
  REQUIRE(p.warnings.empty());
  std::vector<TimedEvent> events{cc(0, 7, 127)};
  for (const auto& [number, value] : ccs) events.push_back(cc(0, number, value));
  events.push_back(noteOn(kNoteAt, 60));
  return play(p, events, static_cast<int64_t>(1.0 * kRate));
}

double centsAt(const Renderer& r, double seconds) {
  const auto mid = static_cast<size_t>(kNoteAt + std::llround(seconds * kRate));
  return centsBetween(measureHz(r.left, mid - 72, mid + 72, kRate), 3000.0);
}

// LFO 1: a 5 Hz vibrato of 100 cents.
const std::string kVibrato = "lfo1_freq=5 lfo1_pitch=100 ";
// EG 1 rising from 0 to 1 in 0.5 s and held there.
const std::string kRise = "eg1_time1=0.5 eg1_level1=1 eg1_sustain=1 ";
// LFO 2 standing at 0.5 (no turn, no wave: its offset only).
const std::string kHalf = "lfo2_freq=0 lfo2_scale=0 lfo2_offset=0.5 ";

}  // namespace

TEST_CASE("egN_depth_lfoX: the EG's level scales the LFO's depth; depthadd adds to it", "[engine][mod][lfo]") {
  const auto scaled = render(kVibrato + kRise + "eg1_depth_lfo1=100");
  CHECK(centsAt(*scaled, 0.05) == Approx(10.0).margin(3.0));   // EG at 0.1
  CHECK(centsAt(*scaled, 0.25) == Approx(50.0).margin(3.0));   // at 0.5
  CHECK(centsAt(*scaled, 0.65) == Approx(100.0).margin(3.0));  // held at 1
  const auto half = render(kVibrato + kRise + "eg1_depth_lfo1=50");
  CHECK(centsAt(*half, 0.65) == Approx(50.0).margin(3.0));
  const auto added = render(kVibrato + kRise + "eg1_depthadd_lfo1=100");
  CHECK(centsAt(*added, 0.25) == Approx(150.0).margin(4.0));  // 1 + 0.5
  CHECK(centsAt(*added, 0.65) == Approx(200.0).margin(5.0));
}

TEST_CASE("lfoN_depth_lfoX: another LFO's value scales the LFO; depthadd adds to it", "[engine][mod][lfo]") {
  const auto scaled = render(kVibrato + kHalf + "lfo2_depth_lfo1=100");
  const auto added = render(kVibrato + kHalf + "lfo2_depthadd_lfo1=100");
  const auto both = render(kVibrato + kHalf + "lfo2_depth_lfo1=100 lfo2_depthadd_lfo1=40");
  for (const double t : {0.05, 0.45}) {
    CAPTURE(t);
    CHECK(centsAt(*scaled, t) == Approx(50.0).margin(3.0));
    CHECK(centsAt(*added, t) == Approx(150.0).margin(4.0));
    CHECK(centsAt(*both, t) == Approx(70.0).margin(3.0));  // 0.5 + 0.4 * 0.5
  }
  // A source holding an LFO the region does not have changes nothing.
  const auto plain = render(kVibrato);
  const auto none = render(kVibrato + kHalf + "lfo2_depth_lfo3=100");
  CHECK(none->left == plain->left);
}

TEST_CASE("lfoN_smooth: a square LFO's step is followed with the time constant in ms", "[engine][mod][lfo]") {
  // Square: 1 for the first half of each 0.2 s cycle, 0 for the second.
  const auto sharp = render("lfo1_freq=5 lfo1_wave=3 lfo1_pitch=100");
  CHECK(centsAt(*sharp, 0.12) == Approx(0.0).margin(3.0));
  const auto smooth = render("lfo1_freq=5 lfo1_wave=3 lfo1_pitch=100 lfo1_smooth=20");
  CHECK(centsAt(*smooth, 0.05) == Approx(100.0).margin(3.0));  // the first value is taken as is
  CHECK(centsAt(*smooth, 0.12) == Approx(100.0 * std::exp(-1.0)).margin(5.0));
  CHECK(centsAt(*smooth, 0.16) == Approx(100.0 * std::exp(-3.0)).margin(3.0));
  CHECK(centsAt(*smooth, 0.22) == Approx(100.0 * (1.0 - std::exp(-1.0))).margin(5.0));
  // The controller adds its milliseconds at note start: CC1 at 127 gives the same 20 ms.
  const auto byCc = render("lfo1_freq=5 lfo1_wave=3 lfo1_pitch=100 lfo1_smooth_oncc1=20", {{1, 127}});
  CHECK(byCc->left == smooth->left);
}

TEST_CASE("lfoN_wave_onccX: the controller adds to the wave number at note start", "[engine][mod][lfo]") {
  const auto square = render("lfo1_freq=5 lfo1_wave=3 lfo1_pitch=100");
  const auto sine = render("lfo1_freq=5 lfo1_wave=1 lfo1_pitch=100");
  const std::string byCc = "lfo1_freq=5 lfo1_wave=1 lfo1_wave_oncc1=2 lfo1_pitch=100";
  CHECK(render(byCc, {{1, 127}})->left == square->left);  // 1 + 2
  CHECK(render(byCc, {{1, 0}})->left == sine->left);
  const auto pulse = render("lfo1_freq=5 lfo1_wave=2 lfo1_pitch=100");
  CHECK(render(byCc, {{1, 64}})->left == pulse->left);  // 1 + 1.008, rounded
  CHECK(centsAt(*square, 0.12) == Approx(0.0).margin(3.0));
}

TEST_CASE("egN_pan_curve: the EG's level goes through the curve before its pan depth", "[engine][mod][eg]") {
  const std::string text = "<curve> curve_index=7 v000=0 v127=0.5\n<region> sample=s.wav amp_veltrack=0 "
                           "eg1_time1=0 eg1_level1=1 eg1_sustain=1 eg1_pan=100 ";
  const auto pan = [&](const std::string& more) {
    SfzProgram p(text + more, constant(0.5f, 96000));
    REQUIRE(p.warnings.empty());
    const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 9600);
    return std::pair{static_cast<double>(r->left[4800]), static_cast<double>(r->right[4800])};
  };
  const auto [hardLeft, hardRight] = pan("");
  CHECK(hardLeft == Approx(0.0).margin(1e-6));  // level 1: pan 100
  CHECK(hardRight > 0.1);
  // Curve 7 at 1 is 0.5: pan 50, the constant-power law's 67.5 degrees.
  const auto [left, right] = pan("eg1_pan_curve=7");
  CHECK(right / left == Approx(std::tan(0.375 * std::numbers::pi)).epsilon(1e-3));
  CHECK(left * left + right * right == Approx(hardRight * hardRight).epsilon(1e-3));
}

TEST_CASE("delay_lfofreq, delay_moddepth: the delay's sine LFO moves its taps' time by the depth", "[engine][effects]") {
  // One left tap of 10 ms (480 frames), the echo only, of an impulse as the bus starts
  // (its LFO at phase 0): a 16 Hz LFO is near its top (phase 0.24) when the echo comes.
  const auto echoAt = [](const std::string& lfo) {
    std::vector<float> impulse(4800, 0.0f);
    impulse[0] = 1.0f;
    SfzProgram p("<region> sample=s.wav amp_veltrack=0 loop_mode=no_loop\n<effect> type=delay delay_timel=0.01 "
                 "delay_dry=0 delay_wet=100 " + lfo + "\n", impulse);
    REQUIRE(p.warnings.empty());
    const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 2400);
    double sum = 0.0, moment = 0.0;  // the echo's centre of mass, in frames
    for (size_t i = 1; i < r->left.size(); ++i) {
      sum += std::fabs(static_cast<double>(r->left[i]));
      moment += std::fabs(static_cast<double>(r->left[i])) * static_cast<double>(i);
    }
    REQUIRE(sum > 0.1);
    return moment / sum;
  };
  CHECK(echoAt("") == Approx(480.0).margin(0.01));
  CHECK(echoAt("delay_lfofreq=16") == Approx(480.0).margin(0.01));  // no depth: no move
  // The echo comes at n = 480 (1 + depth sin(2 pi 16 n / 48000)): 719.5 for 50 %, 593.6 for 25 %.
  CHECK(echoAt("delay_lfofreq=16 delay_moddepth=50") == Approx(719.5).margin(1.0));
  CHECK(echoAt("delay_lfofreq=16 delay_moddepth=25") == Approx(593.6).margin(1.0));
}

}  // namespace lfo_depth_tests
