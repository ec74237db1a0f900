// SFZ v2 flex envelopes (egN_*), measured on renders of a constant sample: breakpoint
// times (within 1 ms) and levels (0.1 dB) with egN_ampeg, the sustain point and the
// release stages, stage shapes (as sfizz: x^s, 1 - (1 - x)^-s), and depths on pitch and
// volume, also by controller.
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace flex_eg_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr int64_t kNoteAt = 480;
const std::string kPlain = "<region> sample=*sine amp_veltrack=0 loop_mode=no_loop ";

std::unique_ptr<Renderer> render(const std::string& opcodes, double offAt, double seconds,
                                 std::vector<std::pair<int, int>> ccs = {}, std::vector<float> frames = {}) {
  SfzProgram p(kPlain + opcodes, frames.empty() ? constant(0.5f, 144000) : std::move(frames));
  REQUIRE(p.warnings.empty());
  std::vector<TimedEvent> events{cc(0, 7, 127)};
  for (const auto& [number, value] : ccs) events.push_back(cc(0, number, value));
  events.push_back(noteOn(kNoteAt, 60));
  events.push_back(noteOff(kNoteAt + std::llround(offAt * kRate), 60));
  return play(p, events, static_cast<int64_t>(seconds * kRate));
}

size_t frameAt(double seconds) { return static_cast<size_t>(kNoteAt + std::llround(seconds * kRate)); }
double gainAt(const Renderer& r, double seconds) { return static_cast<double>(r.left[frameAt(seconds)]) / 0.5; }

// Seconds after the note-on of the first frame at or after `from` where pred holds.
template <class Pred>
double firstTime(const Renderer& r, double from, Pred pred) {
  for (size_t i = frameAt(from); i < r.left.size(); ++i)
    if (pred(r.left[i] / 0.5f)) return static_cast<double>(static_cast<int64_t>(i) - kNoteAt) / kRate;
  return -1.0;
}

}  // namespace

TEST_CASE("A 4-point flex EG as ampeg: breakpoints at their times and levels, sustain, release",
          "[engine][mod][flexeg]") {
  const std::string eg =
      "eg1_ampeg=1 eg1_time0=0 eg1_level0=0 eg1_time1=0.1 eg1_level1=1 eg1_time2=0.2 eg1_level2=0.5 "
      "eg1_time3=0.3 eg1_level3=0.25 eg1_sustain=3 eg1_time4=0.2 eg1_level4=0 ";
  const auto r = render(eg, 1.0, 1.4);
  // Breakpoints: 1.0 at 0.1 s, 0.5 at 0.3 s, 0.25 at 0.6 s (linear stages between).
  CHECK(firstTime(*r, 0.0, [](float g) { return g >= 0.999f; }) == Approx(0.1).margin(0.001));
  CHECK(toDb(gainAt(*r, 0.1)) == Approx(0.0).margin(0.1));
  CHECK(toDb(gainAt(*r, 0.3)) == Approx(toDb(0.5)).margin(0.1));
  CHECK(firstTime(*r, 0.11, [](float g) { return g <= 0.5001f; }) == Approx(0.3).margin(0.001));
  CHECK(toDb(gainAt(*r, 0.6)) == Approx(toDb(0.25)).margin(0.1));
  CHECK(firstTime(*r, 0.31, [](float g) { return g <= 0.2501f; }) == Approx(0.6).margin(0.001));
  CHECK(gainAt(*r, 0.05) == Approx(0.5).margin(0.01));  // half way up the first stage
  CHECK(gainAt(*r, 0.45) == Approx(0.375).margin(0.01));
  // Held at the sustain point until the note-off at 1.0 s, then 0.2 s down to 0.
  CHECK(toDb(gainAt(*r, 0.95)) == Approx(toDb(0.25)).margin(0.1));
  CHECK(gainAt(*r, 1.1) == Approx(0.125).margin(0.005));
  CHECK(firstTime(*r, 1.0, [](float g) { return g == 0.0f; }) == Approx(1.2).margin(0.001));
  CHECK(r->engine.stats().activeVoices == 0);  // the voice ended with its EG
}

TEST_CASE("Flex EG stage shapes bend as sfizz's: x^s above 0, 1 - (1 - x)^-s below", "[engine][mod][flexeg]") {
  for (const float shape : {2.0f, -2.0f, 0.5f}) {
    CAPTURE(shape);
    const std::string eg = "eg1_ampeg=1 eg1_time1=0.2 eg1_level1=1 eg1_sustain=1 eg1_shape1=" + std::to_string(shape) + " ";
    const auto r = render(eg, 1.0, 0.5);
    for (const double x : {0.25, 0.5, 0.75}) {
      const double expected = shape > 0 ? std::pow(x, shape) : 1.0 - std::pow(1.0 - x, -shape);
      CHECK(gainAt(*r, 0.2 * x) == Approx(expected).margin(0.01));
    }
  }
}

TEST_CASE("egN_pitch and egN_volume move their targets by the EG's level; _onccX gives depth",
          "[engine][mod][flexeg]") {
  const std::string eg = "eg2_time1=0.2 eg2_level1=1 eg2_sustain=1 ";
  auto r = render(eg + "eg2_volume=-12", 1.0, 0.5);
  CHECK(toDb(gainAt(*r, 0.1)) == Approx(-6.0).margin(0.1));
  CHECK(toDb(gainAt(*r, 0.4)) == Approx(-12.0).margin(0.1));
  // Pitch: a 3 kHz sine rises 1200 cents by the end of the stage (CC20 at 127).
  r = render(eg + "eg2_pitch_oncc20=1200", 1.0, 0.6, {{20, 127}}, sine(3000.0, kRate, 144000, 0.5f));
  const auto cents = [&](double t) {
    const size_t mid = frameAt(t);
    return centsBetween(measureHz(r->left, mid - 72, mid + 72, kRate), 3000.0);
  };
  CHECK(cents(0.1) == Approx(600.0).margin(8.0));
  CHECK(cents(0.4) == Approx(1200.0).margin(3.0));
  r = render(eg + "eg2_pitch_oncc20=1200", 1.0, 0.6, {{20, 0}}, sine(3000.0, kRate, 144000, 0.5f));
  CHECK(std::abs(centsBetween(measureHz(r->left, frameAt(0.4) - 72, frameAt(0.4) + 72, kRate), 3000.0)) < 1.0);
}

TEST_CASE("egN_timeX_onccY and egN_levelX_onccY move a point at note start", "[engine][mod][flexeg]") {
  const std::string eg = "eg1_ampeg=1 eg1_time1=0.1 eg1_level1=0.5 eg1_sustain=1 eg1_time1_oncc20=0.1 "
                         "eg1_level1_oncc21=0.5 ";
  auto r = render(eg, 1.0, 0.5, {{20, 0}, {21, 0}});
  CHECK(firstTime(*r, 0.0, [](float g) { return g >= 0.4999f; }) == Approx(0.1).margin(0.001));
  CHECK(gainAt(*r, 0.3) == Approx(0.5).margin(1e-3));
  r = render(eg, 1.0, 0.5, {{20, 127}, {21, 127}});  // 0.2 s up to 1.0
  CHECK(firstTime(*r, 0.0, [](float g) { return g >= 0.9999f; }) == Approx(0.2).margin(0.001));
  CHECK(gainAt(*r, 0.1) == Approx(0.5).margin(0.01));
}

}  // namespace flex_eg_tests
