// The region EQ (eq1..eq3): each band's gain at and around its frequency, velocity and
// controller modulation, band types; gains in dB (0.1 dB) of a sine, steady state.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace eq_modulation_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
const std::string kPlain = "<region> sample=*sine amp_veltrack=0 ";

// Gain in dB of a sine of `hz` through the region's EQ, steady state.
double eqGainDb(const std::string& opcodes, double hz, std::vector<std::pair<int, int>> ccs = {}, int velocity = 100) {
  SfzProgram p(kPlain + opcodes, sine(hz, kRate, 96000));
  REQUIRE(p.warnings.empty());
  std::vector<TimedEvent> events{cc(0, 7, 127)};
  for (const auto& [number, value] : ccs) events.push_back(cc(0, number, value));
  events.push_back(noteOn(10, 60, velocity));
  const auto r = play(p, events, 40000);
  return toDb(rms(r->left, 10000, 40000) / (0.5 / std::sqrt(2.0)));
}

}  // namespace

TEST_CASE("eqN_freq/bw/gain: a peaking band gives its gain at its frequency, little an octave band away",
          "[engine][mod][eq]") {
  CHECK(eqGainDb("", 1000.0) == Approx(0.0).margin(0.05));
  CHECK(eqGainDb("eq1_freq=1000 eq1_bw=1 eq1_gain=12", 1000.0) == Approx(12.0).margin(0.1));
  CHECK(eqGainDb("eq1_freq=1000 eq1_bw=1 eq1_gain=-12", 1000.0) == Approx(-12.0).margin(0.1));
  CHECK(std::fabs(eqGainDb("eq1_freq=1000 eq1_bw=1 eq1_gain=12", 100.0)) < 0.3);
  // Half the gain (in dB) at the band edges, half an octave either side for bw=1.
  CHECK(eqGainDb("eq3_freq=2000 eq3_bw=1 eq3_gain=12", 2000.0 * std::sqrt(2.0)) == Approx(6.0).margin(0.5));
  CHECK(eqGainDb("eq2_freq=500 eq2_vel2gain=12", 500.0, {}, 127) == Approx(12.0).margin(0.1));
}

TEST_CASE("eqN_gain_onccX and eqN_freq_onccX move the EQ while the note sounds", "[engine][mod][eq]") {
  const std::string ops = "eq1_freq=1000 eq1_gain_oncc20=12";
  CHECK(eqGainDb(ops, 1000.0, {{20, 0}}) == Approx(0.0).margin(0.05));
  CHECK(eqGainDb(ops, 1000.0, {{20, 127}}) == Approx(12.0).margin(0.1));
  CHECK(eqGainDb(ops, 1000.0, {{20, 64}}) == Approx(12.0 * 64 / 127).margin(0.1));
  CHECK(eqGainDb("eq1_freq=1000 eq1_gaincc20=12", 1000.0, {{20, 127}}) == Approx(12.0).margin(0.1));
  // The band moved from 1 kHz up to 2 kHz by CC21 = 127.
  const std::string moving = "eq1_freq=1000 eq1_gain=12 eq1_freq_oncc21=1000";
  CHECK(eqGainDb(moving, 2000.0, {{21, 127}}) == Approx(12.0).margin(0.1));
  CHECK(eqGainDb(moving, 2000.0, {{21, 0}}) < 7.0);
}

TEST_CASE("eqN_type: the voice gives each band its type", "[engine][mod][eq]") {
  // Shelves: the whole gain far on their side, half at their frequency, none far away.
  CHECK(eqGainDb("eq1_type=lshelf eq1_freq=1000 eq1_gain=12", 40.0) == Approx(12.0).margin(0.1));
  CHECK(eqGainDb("eq1_type=lshelf eq1_freq=1000 eq1_gain=12", 1000.0) == Approx(6.0).margin(0.1));
  CHECK(std::fabs(eqGainDb("eq1_type=lshelf eq1_freq=1000 eq1_gain=12", 15000.0)) < 0.1);
  CHECK(eqGainDb("eq2_type=hshelf eq2_freq=1000 eq2_gain=-12", 15000.0) == Approx(-12.0).margin(0.1));
  CHECK(std::fabs(eqGainDb("eq2_type=hshelf eq2_freq=1000 eq2_gain=-12", 40.0)) < 0.1);
  CHECK(eqGainDb("eq3_type=peak eq3_freq=1000 eq3_gain=12", 1000.0) == Approx(12.0).margin(0.1));
}

}  // namespace eq_modulation_tests
