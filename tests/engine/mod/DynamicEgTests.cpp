// ampeg_dynamic / egN_dynamic, on renders: a controller moving an envelope's stage
// opcode while the envelope runs (linear stages, so the levels are exact fractions).
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace dynamic_eg_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

// Renders a looped constant with `opcodes`: note-on at 0, note-off at 4800; `events` added.
std::vector<float> render(const std::string& opcodes, std::vector<TimedEvent> events, int64_t frames) {
  SfzProgram p("<region> sample=a.wav loop_mode=loop_continuous amp_veltrack=0 " + opcodes, constant(0.5f, 200000));
  REQUIRE(p.warnings.empty());
  events.insert(events.begin(), {cc(0, 7, 127), noteOn(0, 60)});
  events.push_back(noteOff(4800, 60));
  return play(p, events, frames)->left;
}

// The envelope's level at `frame`: the output against the sustained output at frame 1000.
double level(const std::vector<float>& x, size_t frame) { return static_cast<double>(x[frame] / x[1000]); }

}  // namespace

TEST_CASE("ampeg_dynamic=1: a controller moving ampeg_release retimes the running release", "[engine][v2]") {
  // Release 0.1 s linear (4800 frames); half-way (level 0.5) CC1 makes it 2 s: the other
  // half takes 48000 frames from there.
  const std::string opcodes = "ampeg_release=0.1 ampeg_release_oncc1=1.9 ampeg_release_shape=0 ";
  const auto dynamic = render(opcodes + "ampeg_dynamic=1", {cc(7200, 1, 127)}, 60000);
  CHECK(level(dynamic, 7200) == Approx(0.5).margin(0.002));
  CHECK(level(dynamic, 7200 + 24000) == Approx(0.25).margin(0.002));
  CHECK(level(dynamic, 7200 + 47000) == Approx(0.0104).margin(0.002));
  const auto fixed = render(opcodes, {cc(7200, 1, 127)}, 60000);  // ampeg_dynamic=0: as at note start
  CHECK(level(fixed, 7200) == Approx(0.5).margin(0.002));
  CHECK(level(fixed, 9700) == 0.0);
}

TEST_CASE("ampeg_dynamic=1: a controller moving ampeg_sustain glides the held level", "[engine][v2]") {
  const std::string opcodes = "ampeg_sustain=100 ampeg_sustain_oncc1=-50 ";
  const auto dynamic = render(opcodes + "ampeg_dynamic=1", {cc(2000, 1, 127)}, 4800);
  CHECK(level(dynamic, 1999) == Approx(1.0));
  CHECK(level(dynamic, 2000 + 32) == Approx(0.75).margin(0.01));  // half-way through the 64-frame glide
  CHECK(level(dynamic, 2000 + 200) == Approx(0.5).margin(1e-4));
  const auto fixed = render(opcodes, {cc(2000, 1, 127)}, 4800);
  CHECK(level(fixed, 2200) == Approx(1.0));
}

TEST_CASE("ampeg_dynamic=1: a controller moving ampeg_attack retimes the attack", "[engine][v2]") {
  // Attack 0.1 s (4800 frames, linear); at 1200 frames (level 0.25) CC1 makes it 0.2 s.
  SfzProgram p("<region> sample=a.wav loop_mode=loop_continuous amp_veltrack=0 ampeg_attack=0.1 "
               "ampeg_attack_oncc1=0.1 ampeg_dynamic=1",
               constant(0.5f, 48000));
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60), cc(1200, 1, 127)}, 20000);
  const double full = static_cast<double>(r->left[19000]);
  const auto at = [&](size_t f) { return static_cast<double>(r->left[f]) / full; };
  CHECK(at(1200) == Approx(0.25).margin(0.001));
  CHECK(at(1200 + 3600) == Approx(0.25 + 0.75 * 0.5).margin(0.001));  // 3600 of 7200 left
  CHECK(at(1200 + 7200 + 10) == Approx(1.0));
}

namespace {
// A flex EG as the amplitude envelope: up to 1 at once, held; after the note-off (4800)
// down to 0 over eg1_time2 (1 s, 2 s with CC1 at 127), linear.
const std::string kFlexAmp = "eg1_ampeg=1 eg1_sustain=1 eg1_time1=0 eg1_level1=1 eg1_time2=1 eg1_level2=0 "
                             "eg1_time2_oncc1=1 ";
}  // namespace

TEST_CASE("egN_dynamic=1: a controller moving egN_timeX restarts the running stage from its level", "[engine][v2]") {
  // Half-way (0.5 s into the fall, level 0.5) CC1 makes the stage 2 s: 1.5 s from level 0.5.
  const auto dynamic = render(kFlexAmp + "eg1_dynamic=1", {cc(4800 + 24000, 1, 127)}, 4800 + 100000);
  CHECK(level(dynamic, 4800 + 24000) == Approx(0.5).margin(0.003));
  CHECK(level(dynamic, 4800 + 24000 + 36000) == Approx(0.25).margin(0.003));
  const auto fixed = render(kFlexAmp, {cc(4800 + 24000, 1, 127)}, 4800 + 100000);
  CHECK(level(fixed, 4800 + 36000) == Approx(0.25).margin(0.003));  // still the 1 s stage
  CHECK(level(fixed, 4800 + 48100) == 0.0);
}

TEST_CASE("egN_dynamic=0: a stage reads its controllers when it starts, not at note start", "[engine][v2]") {
  // CC1 moves while the EG holds: the fall, starting at the note-off, takes 2 s.
  const auto x = render(kFlexAmp, {cc(2400, 1, 127)}, 4800 + 100000);
  CHECK(level(x, 4800 + 48000) == Approx(0.5).margin(0.003));
  CHECK(level(x, 4800 + 72000) == Approx(0.25).margin(0.003));
}

TEST_CASE("egN_loop / egN_loop_count: the EG goes back to the loop point after its last one", "[engine][v2]") {
  // Stage 1 falls 1 -> 0 over 0.1 s, stage 2 rises back over 0.1 s; loop=1 repeats both twice.
  const std::string eg = "eg1_ampeg=1 eg1_sustain=31 eg1_level0=1 eg1_time1=0.1 eg1_level1=0 eg1_time2=0.1 "
                         "eg1_level2=1 ";
  const auto levels = [&](const std::string& opcodes, int64_t noteOffAt) {
    SfzProgram p("<region> sample=a.wav loop_mode=loop_continuous amp_veltrack=0 " + eg + opcodes,
                 constant(0.5f, 200000));
    REQUIRE(p.warnings.empty());
    SfzProgram plain("<region> sample=a.wav loop_mode=loop_continuous amp_veltrack=0", constant(0.5f, 48000));
    const auto full = static_cast<double>(play(plain, {cc(0, 7, 127), noteOn(0, 60)}, 256)->left[100]);
    auto r = play(p, {cc(0, 7, 127), noteOn(0, 60), noteOff(noteOffAt, 60)}, 40000);
    std::vector<double> out;
    for (int64_t f : {4800, 9500, 14400, 19200, 21600, 24000, 28700, 29500, 39000})
      out.push_back(static_cast<double>(r->left[static_cast<size_t>(f)]) / full);
    out.push_back(r->engine.stats().activeVoices);
    return out;
  };
  const auto looped = levels("eg1_loop=1 eg1_loop_count=2", 39500);
  const double early = 1.0 - 100.0 / 4800.0;  // 100 frames before a rise ends
  const std::vector<double> expected = {0.0, early, 0.0, 1.0, 0.5, 0.0, early, 0.0, 0.0, 0.0};
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(looped[i] == Approx(expected[i]).margin(0.01));
  }
  const auto once = levels("", 39500);  // no loop: over at 9600
  CHECK(once[1] == Approx(1.0 - 100.0 / 4800.0).margin(0.01));
  CHECK(once[2] == 0.0);
  const auto endless = levels("eg1_loop=1", 39500);  // no count: loops while held
  CHECK(endless[7] == Approx(1.0 - 700.0 / 4800.0).margin(0.01));
  CHECK(endless[8] == Approx(1.0 - 600.0 / 4800.0).margin(0.01));  // 39000: 600 frames into the fourth loop
  const auto released = levels("eg1_loop=1", 12000);  // note-off in the first loop: ends with that pass
  CHECK(released[2] == Approx(0.0).margin(0.01));
  CHECK(released[4] == 0.0);
}

}  // namespace dynamic_eg_tests
