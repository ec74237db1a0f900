// A controller moved in the middle of a note: the level starts moving at the CC
// event's frame, reaches its target within the slot's smoothing time, and no frame
// steps further than the smoothing's slope allows.
#include "ModTestSupport.h"
#include "catch.h"

namespace mod_timing_tests {

using namespace spindle;
using namespace spindle::test;

TEST_CASE("a mid-note CC change moves the level from its frame, within smoothcc, without steps",
          "[engine][mod]") {
  SfzProgram p("<region> sample=*sine amp_veltrack=0 amplitude_oncc1=100 amplitude_smoothcc1=100",
               constant(0.5f, 96000));
  REQUIRE(p.warnings.empty());
  constexpr int64_t kChange = 10007;  // not on a block or control-step boundary
  constexpr double kSmoothFrames = 4800.0;  // 100 ms at 48 kHz
  const auto block = GENERATE(64, 256, 1000);
  CAPTURE(block);
  const auto r = play(p, {cc(0, 7, 127), cc(0, 1, 127), noteOn(0, 60), cc(kChange, 1, 32)}, 24000, block);
  const std::vector<float>& x = r->left;
  const double from = 0.5, to = 0.5 * 32.0 / 127.0;
  const auto k = static_cast<size_t>(kChange);
  CHECK(x[k - 1] == Approx(from).margin(1e-6));  // untouched before the event
  CHECK(static_cast<double>(x[k]) < from - 1e-6);                    // moving at the event's frame
  // Linear over the smoothing time: half-way at half the time (within one frame's move).
  const double slope = (from - to) / kSmoothFrames;
  CHECK(x[k + 2400] == Approx(from - 2400.5 * slope).margin(2 * slope));
  CHECK(static_cast<double>(x[k + 4700]) > to + 50 * slope);                        // not there early
  CHECK(x[k + 4800] == Approx(to).margin(1e-5));               // there on time
  CHECK(x[k + 6000] == Approx(to).margin(1e-6));
  CHECK(static_cast<double>(maxJump(x, k - 100, k + 6000)) <= slope * 1.01);
}

TEST_CASE("without smoothcc a CC move still ramps (default smoothing), a pan move too", "[engine][mod]") {
  SfzProgram p("<region> sample=*sine amp_veltrack=0 amplitude_oncc1=100 pan_oncc2=100", constant(0.5f, 96000));
  const auto r = play(p, {cc(0, 7, 127), cc(0, 1, 127), noteOn(0, 60), cc(5000, 1, 0), cc(9000, 2, 127)}, 12000);
  // 5 ms default: 240 frames from full level to silence, no frame steps more than 1/240.
  const float slope = 0.5f / 240.0f;
  CHECK(maxJump(r->left, 4990, 5400) <= slope * 1.01f);
  CHECK(r->left[5000 + 240] == Approx(0.0f).margin(1e-6));
  CHECK(r->left[5000 + 120] == Approx(0.25f).margin(1.5f * slope));
}

}  // namespace mod_timing_tests
