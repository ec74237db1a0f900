// loop_crossfade: the seam's click, the blended frames, the loop's exit.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace loop_crossfade_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

// Largest |x[k+1] - 2 x[k] + x[k-1]| for k in [from, to).
double peakSecondDifference(const std::vector<float>& x, int64_t from, int64_t to) {
  double peak = 0.0;
  for (auto k = static_cast<size_t>(from); k < static_cast<size_t>(to); ++k)
    peak = std::max(peak, std::fabs(static_cast<double>(x[k + 1]) - 2.0 * static_cast<double>(x[k]) + static_cast<double>(x[k - 1])));
  return peak;
}

// The blend of core/LoopTail.h, written out for a ramp (frame k holds k).
double blended(int64_t le, int64_t ls, int64_t x, int64_t i) {
  const double s = std::sin(0.5 * std::numbers::pi * static_cast<double>(i + 1) / static_cast<double>(x));
  const double g = s * s;
  return (1.0 - g) * static_cast<double>(le - x + 1 + i) + g * static_cast<double>(ls - x + i);
}

struct Seams {
  double atSeams = 0.0, elsewhere = 0.0;
};

// A 441 Hz sine looped over 1000..2999 (2000 frames: 18.375 periods, so the jump back
// lands half a radian off): the peak second difference within 200 frames of each seam
// (the 192-frame blend and the jump), and elsewhere in the steady loop.
Seams sineSeams(const std::string& opcodes) {
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous loop_start=1000 loop_end=2999 " + opcodes,
               sine(441.0, 48000.0, 6000));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 11000);
  Seams s;
  for (int64_t seam = 3000; seam <= 9000; seam += 2000) {
    s.atSeams = std::max(s.atSeams, peakSecondDifference(r->left, seam - 200, seam + 8));
    s.elsewhere = std::max(s.elsewhere, peakSecondDifference(r->left, seam + 8, seam + 1800));
  }
  return s;
}

}  // namespace

TEST_CASE("loop_crossfade removes the click at the loop seam of a sine", "[engine][v2][xfade]") {
  const Seams plain = sineSeams("");
  const Seams faded = sineSeams("loop_crossfade=0.004");  // 192 frames at 48 kHz
  std::printf("loop seam peak |2nd difference|: without %.5f (elsewhere %.5f), with loop_crossfade %.5f (elsewhere %.5f)\n",
              plain.atSeams, plain.elsewhere, faded.atSeams, faded.elsewhere);
  // A 0.5 sine at 441 Hz: 0.5 w^2 = 0.0019 everywhere in the steady loop.
  CHECK(plain.elsewhere == Approx(faded.elsewhere).epsilon(0.01));
  CHECK(plain.atSeams > 10.0 * plain.elsewhere);  // the click
  // The blend of two sines of one frequency is a sine of at most their amplitude, and the
  // raised-cosine gain's own curvature adds pi^2/(4 X^2) times their 0.5 difference:
  // 1.5x leaves room for both, far below the click.
  CHECK(faded.atSeams <= 1.5 * faded.elsewhere);
}

TEST_CASE("loop_crossfade blends the last X frames of every cycle that jumps back, by the formula",
          "[engine][v2][xfade]") {
  // X = 0.001 s at 48 kHz = 48 frames; loop 300..499 played 3 times: cycles 0 and 1 jump
  // back and are blended, cycle 2 is the exit and plays its own frames on to the end.
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous loop_start=300 loop_end=499 "
               "loop_count=3 loop_crossfade=0.001",
               ramp(1000));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 2000);
  std::vector<double> expected;
  for (int64_t cycle = 0; cycle < 3; ++cycle) {
    for (int64_t k = cycle == 0 ? 0 : 300; k < 452; ++k) expected.push_back(static_cast<double>(k));
    for (int64_t i = 0; i < 48; ++i) expected.push_back(cycle < 2 ? blended(499, 300, 48, i) : static_cast<double>(452 + i));
  }
  for (int64_t k = 500; k < 1000; ++k) expected.push_back(static_cast<double>(k));
  REQUIRE(r->left.size() >= expected.size() + 10);
  CHECK(r->left[499] == 299.0f);  // the last blended frame is frame ls - 1 exactly
  CHECK(r->left[500] == 300.0f);
  for (size_t u = 0; u < expected.size(); ++u) {
    CAPTURE(u);
    REQUIRE(r->left[u] == Approx(expected[u]).margin(1e-3));
  }
  CHECK(r->left[expected.size() + 5] == 0.0f);  // the exit landed exactly: the sample ended on time
}

TEST_CASE("loop_crossfade is clamped to the loop's length and to loop_start", "[engine][v2][xfade]") {
  // 1 s asked: the blend spans the whole 200-frame loop, but only 100 frames precede
  // loop_start, so X = 100.
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous loop_start=100 loop_end=299 "
               "loop_crossfade=1",
               ramp(1000));
  REQUIRE(p.warnings.empty());
  REQUIRE(p.program->loopTails.size() == 1);
  CHECK(p.program->loopTails[0].frames == 100);
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 1200);
  for (int64_t i = 0; i < 100; ++i) REQUIRE(r->left[static_cast<size_t>(200 + i)] == Approx(blended(299, 100, 100, i)).margin(1e-3));
  CHECK(r->left[300] == 100.0f);
  CHECK(r->left[499] == 99.0f);  // cycle 1's blend ends on frame ls - 1 too
}

}  // namespace loop_crossfade_tests
