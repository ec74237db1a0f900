// ARIA's modulation variables (varNN_*): a variable's sources (varNN_onccX through
// varNN_curveccX) summed, or multiplied with varNN_mod=mult, and the variable's value
// times its depth moving each target (varNN_volume, varNN_eq1gain...). Levels in dB
// (0.05 dB) of a steady sine, read from the render.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace variable_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
const std::string kPlain = "<region> sample=*sine amp_veltrack=0 ";

// Level in dB of a sine of `hz` (0 dB: the sample's own level) with the region's
// opcodes, the CCs set before the note, and the CCs of `later` 0.5 s into it (read after).
double levelDb(const std::string& opcodes, std::vector<std::pair<int, int>> ccs, int velocity = 127,
               double hz = 1000.0, std::vector<std::pair<int, int>> later = {}) {
  SfzProgram p(opcodes, sine(hz, kRate, 96000));
  INFO(opcodes);
  for (const std::string& w : p.warnings) INFO(w);
  REQUIRE(p.warnings.empty());
  std::vector<TimedEvent> events{cc(0, 7, 127)};
  for (const auto& [number, value] : ccs) events.push_back(cc(0, number, value));
  events.push_back(noteOn(10, 60, velocity));
  for (const auto& [number, value] : later) events.push_back(cc(24000, number, value));
  const auto r = play(p, events, 60000);
  const size_t from = later.empty() ? 10000 : 40000;
  return toDb(rms(r->left, from, from + 20000) / (0.5 / std::sqrt(2.0)));
}

}  // namespace

TEST_CASE("varNN_mod=mult: the product of the variable's sources scales its targets' depth", "[engine][mod][aria]") {
  const std::string ops = kPlain + "var01_mod=mult var01_oncc20=1 var01_oncc131=1 var01_volume=-12";
  CHECK(levelDb(ops, {{20, 0}}) == Approx(0.0).margin(0.05));
  CHECK(levelDb(ops, {{20, 127}}) == Approx(-12.0).margin(0.05));
  // Velocity (CC131) 64 and CC20 127, or the other way round: 64/127 of the depth.
  CHECK(levelDb(ops, {{20, 127}}, 64) == Approx(-12.0 * 64 / 127).margin(0.05));
  CHECK(levelDb(ops, {{20, 64}}) == Approx(-12.0 * 64 / 127).margin(0.05));
  CHECK(levelDb(ops, {{20, 64}}, 64) == Approx(-12.0 * 64 / 127 * 64 / 127).margin(0.05));
}

TEST_CASE("varNN_mod=add (the default): the variable is the sum of its sources", "[engine][mod][aria]") {
  for (const std::string mode : {"", "var02_mod=add "}) {
    const std::string ops = kPlain + mode + "var02_oncc20=0.5 var02_oncc21=0.25 var02_volume=-12";
    CHECK(levelDb(ops, {}) == Approx(0.0).margin(0.05));
    CHECK(levelDb(ops, {{20, 127}}) == Approx(-6.0).margin(0.05));
    CHECK(levelDb(ops, {{20, 127}, {21, 127}}) == Approx(-9.0).margin(0.05));
  }
}

TEST_CASE("varNN: a source's curve, a move while the note sounds, and an EQ target", "[engine][mod][aria]") {
  // Curve 7 falls from 1 at CC 0 to 0 at CC 127: the variable is full with the CC down.
  const std::string curve = "<curve> curve_index=7 v000=1 v127=0 " + kPlain +
                            "var03_oncc20=1 var03_curvecc20=7 var03_volume=-10";
  CHECK(levelDb(curve, {{20, 0}}) == Approx(-10.0).margin(0.05));
  CHECK(levelDb(curve, {{20, 127}}) == Approx(0.0).margin(0.05));
  // The variable follows its controller while the note sounds.
  const std::string moving = kPlain + "var01_oncc20=1 var01_volume=-12";
  CHECK(levelDb(moving, {{20, 0}}, 127, 1000.0, {{20, 127}}) == Approx(-12.0).margin(0.05));
  // A weresax-style EQ: velocity times CC22 raises band 1 by up to 9 dB at 1 kHz.
  const std::string eq = kPlain + "eq1_freq=1000 eq1_bw=1 eq1_gain=0.001 var01_mod=mult var01_oncc22=1 "
                                  "var01_oncc131=1 var01_eq1gain=9";
  CHECK(levelDb(eq, {{22, 0}}) == Approx(0.0).margin(0.05));
  CHECK(levelDb(eq, {{22, 127}}, 100) == Approx(9.0 * 100 / 127).margin(0.1));
}

}  // namespace variable_tests
