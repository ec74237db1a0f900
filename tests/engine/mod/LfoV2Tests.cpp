// SFZ v2 LFOs (lfoN_*), measured on renders: vibrato in cents at chosen phases, tremolo
// in dB, wave shapes, delay and fade, phase, count, sample and hold, controller depths
// and frequency, and a cutoff LFO seen through a sine's level. A 5 Hz LFO's cycle is
// 9,600 frames; the voice reads it every 32 frames (Voice::kControlFrames).
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace lfo_v2_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr int64_t kNoteAt = 480;  // the note starts 10 ms in
const std::string kPlain = "<region> sample=*sine amp_veltrack=0 loop_mode=no_loop ";

// One note of a 3 kHz sine (2 s) with `opcodes`, after the CCs.
std::unique_ptr<Renderer> render(const std::string& opcodes, std::vector<std::pair<int, int>> ccs = {},
                                 double seconds = 1.2) {
  SfzProgram p(kPlain + opcodes, sine(3000.0, kRate, 96000, 0.5f));
  REQUIRE(p.warnings.empty());
  std::vector<TimedEvent> events{cc(0, 7, 127)};
  for (const auto& [number, value] : ccs) events.push_back(cc(0, number, value));
  events.push_back(noteOn(kNoteAt, 60));
  return play(p, events, static_cast<int64_t>(seconds * kRate));
}

size_t frameAt(double seconds) { return static_cast<size_t>(kNoteAt + std::llround(seconds * kRate)); }

// Pitch in cents against 3 kHz over 3 ms centred `seconds` after the note-on.
double centsAt(const Renderer& r, double seconds) {
  const size_t mid = frameAt(seconds);
  return centsBetween(measureHz(r.left, mid - 72, mid + 72, kRate), 3000.0);
}

// Level in dB against the sine's 0.5 peak over 4 ms centred `seconds` after the note-on.
double levelAt(const Renderer& r, double seconds) {
  const size_t mid = frameAt(seconds);
  return toDb(rms(r.left, mid - 96, mid + 96) * std::sqrt(2.0) / 0.5);
}

}  // namespace

TEST_CASE("lfoN_pitch: a 5 Hz vibrato of the set depth, sine from phase 0", "[engine][mod][lfo]") {
  const auto r = render("lfo1_freq=5 lfo1_pitch=100");
  // Cycle 0.2 s: top at 0.05 s, back through 0 at 0.1 s, bottom at 0.15 s.
  for (int cycle = 0; cycle < 4; ++cycle) {
    const double t = 0.2 * cycle;
    CAPTURE(cycle);
    CHECK(centsAt(*r, t + 0.05) == Approx(100.0).margin(3.0));
    CHECK(centsAt(*r, t + 0.10) == Approx(0.0).margin(6.0));
    CHECK(centsAt(*r, t + 0.15) == Approx(-100.0).margin(3.0));
  }
}

TEST_CASE("lfoN_volume: a tremolo of +-6 dB; lfoN_amplitude scales the gain by its percent", "[engine][mod][lfo]") {
  auto r = render("lfo2_freq=4 lfo2_volume=6");
  CHECK(levelAt(*r, 0.0625) == Approx(6.0).margin(0.2));    // a quarter of 0.25 s
  CHECK(levelAt(*r, 0.1875) == Approx(-6.0).margin(0.2));
  CHECK(levelAt(*r, 0.3125) == Approx(6.0).margin(0.2));
  r = render("lfo2_freq=4 lfo2_amplitude=50");
  CHECK(levelAt(*r, 0.0625) == Approx(toDb(1.5)).margin(0.2));
  CHECK(levelAt(*r, 0.1875) == Approx(toDb(0.5)).margin(0.2));
}

TEST_CASE("lfoN_wave: square and pulses are unipolar, saws ramp, triangle peaks at a quarter", "[engine][mod][lfo]") {
  auto r = render("lfo1_freq=2 lfo1_wave=3 lfo1_volume=6");  // square: +6 dB, then 0 dB
  CHECK(levelAt(*r, 0.1) == Approx(6.0).margin(0.2));
  CHECK(levelAt(*r, 0.4) == Approx(0.0).margin(0.2));
  r = render("lfo1_freq=2 lfo1_wave=4 lfo1_volume=6");  // pulse 25 %
  CHECK(levelAt(*r, 0.1) == Approx(6.0).margin(0.2));
  CHECK(levelAt(*r, 0.2) == Approx(0.0).margin(0.2));
  r = render("lfo1_freq=2 lfo1_wave=6 lfo1_pitch=100");  // saw up: -100 .. 100 cents
  CHECK(centsAt(*r, 0.125) == Approx(-50.0).margin(3.0));
  CHECK(centsAt(*r, 0.375) == Approx(50.0).margin(3.0));
  r = render("lfo1_freq=2 lfo1_wave=7 lfo1_pitch=100");  // saw down
  CHECK(centsAt(*r, 0.125) == Approx(50.0).margin(3.0));
  r = render("lfo1_freq=2 lfo1_wave=0 lfo1_pitch=100");  // triangle
  CHECK(centsAt(*r, 0.125) == Approx(100.0).margin(3.0));
  CHECK(centsAt(*r, 0.0625) == Approx(50.0).margin(4.0));
}

TEST_CASE("lfoN_delay, lfoN_fade and lfoN_phase", "[engine][mod][lfo]") {
  // Square at 1 Hz: after a 0.2 s delay it fades in over 0.2 s at its top value.
  auto r = render("lfo1_freq=1 lfo1_wave=3 lfo1_volume=6 lfo1_delay=0.2 lfo1_fade=0.2");
  CHECK(levelAt(*r, 0.1) == Approx(0.0).margin(0.1));
  CHECK(levelAt(*r, 0.3) == Approx(3.0).margin(0.2));
  CHECK(levelAt(*r, 0.5) == Approx(6.0).margin(0.1));
  // phase 0.25 starts a sine at its top.
  r = render("lfo1_freq=4 lfo1_phase=0.25 lfo1_volume=6");
  CHECK(levelAt(*r, 0.003) == Approx(6.0).margin(0.3));
  CHECK(levelAt(*r, 0.125) == Approx(-6.0).margin(0.2));
}

TEST_CASE("lfoN_count stops the LFO after that many cycles", "[engine][mod][lfo]") {
  const auto r = render("lfo1_freq=5 lfo1_count=2 lfo1_volume=6");
  CHECK(levelAt(*r, 0.25) == Approx(6.0).margin(0.2));  // second cycle
  CHECK(levelAt(*r, 0.45) == Approx(0.0).margin(0.05));
  CHECK(levelAt(*r, 0.65) == Approx(0.0).margin(0.05));
}

TEST_CASE("lfoN_wave=12 samples and holds one level per cycle", "[engine][mod][lfo]") {
  const auto r = render("lfo1_freq=5 lfo1_wave=12 lfo1_volume=6", {}, 1.2);
  std::vector<double> held;
  for (int cycle = 0; cycle < 5; ++cycle) {
    const double a = levelAt(*r, 0.2 * cycle + 0.05), b = levelAt(*r, 0.2 * cycle + 0.15);
    CAPTURE(cycle);
    CHECK(a == Approx(b).margin(0.05));  // held through the cycle
    CHECK(std::abs(a) <= 6.05);
    held.push_back(a);
  }
  int changes = 0;
  for (size_t i = 1; i < held.size(); ++i) changes += std::abs(held[i] - held[i - 1]) > 0.1 ? 1 : 0;
  CHECK(changes >= 3);
}

TEST_CASE("lfoN_pitch_onccX and lfoN_freq_onccX: the controller gives depth and rate", "[engine][mod][lfo]") {
  const std::string ops = "lfo1_freq=1 lfo1_freq_oncc112=4 lfo1_pitch_oncc111=20 ";
  // CC111 at 0: no vibrato.
  auto r = render(ops, {{111, 0}, {112, 127}});
  CHECK(std::abs(centsAt(*r, 0.05)) < 1.0);
  // CC111 at 127 and CC112 at 127: 20 cents at 1 + 4 = 5 Hz.
  r = render(ops, {{111, 127}, {112, 127}});
  CHECK(centsAt(*r, 0.05) == Approx(20.0).margin(1.5));
  CHECK(centsAt(*r, 0.15) == Approx(-20.0).margin(1.5));
  // CC112 at 0: 1 Hz, the top at 0.25 s.
  r = render(ops, {{111, 127}, {112, 0}});
  CHECK(centsAt(*r, 0.25) == Approx(20.0).margin(1.5));
  CHECK(centsAt(*r, 0.05) == Approx(20.0 * std::sin(2.0 * 3.14159265 * 0.05)).margin(1.5));
}

TEST_CASE("lfoN_cutoff moves a low-pass filter at the LFO's rate", "[engine][mod][lfo]") {
  // A 3 kHz sine through lpf_2p at 3 kHz (-3 dB), the cutoff swept +-1 octave at 5 Hz:
  // the sine passes at the cutoff's top and is cut by about 12 dB at its bottom.
  const auto r = render("cutoff=3000 lfo1_freq=5 lfo1_cutoff=1200");
  for (int cycle = 0; cycle < 3; ++cycle) {
    CAPTURE(cycle);
    const double top = levelAt(*r, 0.2 * cycle + 0.05), bottom = levelAt(*r, 0.2 * cycle + 0.15);
    CHECK(top > -1.5);
    CHECK(bottom < -10.0);
  }
}

TEST_CASE("lfoN_steps and lfoN_stepX: a step sequence replaces the wave", "[engine][mod][lfo]") {
  // 4 steps at 2 Hz: each lasts 0.125 s; on volume with depth 6 dB.
  const auto r = render("lfo1_freq=2 lfo1_volume=6 lfo1_steps=4 lfo1_step1=100 lfo1_step2=-50 lfo1_step3=0 "
                        "lfo1_step4=50");
  CHECK(levelAt(*r, 0.06) == Approx(6.0).margin(0.1));
  CHECK(levelAt(*r, 0.19) == Approx(-3.0).margin(0.1));
  CHECK(levelAt(*r, 0.31) == Approx(0.0).margin(0.1));
  CHECK(levelAt(*r, 0.44) == Approx(3.0).margin(0.1));
  CHECK(levelAt(*r, 0.56) == Approx(6.0).margin(0.1));  // the next cycle
}

TEST_CASE("lfoN_waveX/ratioX/scaleX: sub-waves add to the main wave", "[engine][mod][lfo]") {
  // Two unipolar squares on volume (6 dB each): the second turns twice as fast.
  const auto r = render("lfo1_freq=2 lfo1_volume=6 lfo1_wave=3 lfo1_wave2=3 lfo1_ratio2=2 lfo1_scale2=1");
  CHECK(levelAt(*r, 0.05) == Approx(12.0).margin(0.1));  // phase 0.1: both high
  CHECK(levelAt(*r, 0.15) == Approx(6.0).margin(0.1));   // 0.3: the second low
  CHECK(levelAt(*r, 0.30) == Approx(6.0).margin(0.1));   // 0.6: the first low, the second high again
  CHECK(levelAt(*r, 0.40) == Approx(0.0).margin(0.1));   // 0.8: both low
}

TEST_CASE("lfoN_freq_lfoX and egN_freq_lfoX move another LFO's rate", "[engine][mod][lfo]") {
  // LFO 2, a 1 Hz unipolar square, adds 4 Hz to LFO 1 (1 Hz) in the first half second:
  // LFO 1 turns 2.5 times by 0.5 s, then a quarter turn more by 0.75 s.
  const std::string vibrato = "lfo1_freq=1 lfo1_pitch=100 lfo2_freq=1 lfo2_wave=3 ";
  auto r = render(vibrato + "lfo2_freq_lfo1=4");
  CHECK(centsAt(*r, 0.05) == Approx(100.0).margin(4.0));
  CHECK(centsAt(*r, 0.75) == Approx(-100.0).margin(4.0));
  r = render(vibrato + "lfo2_freq_lfo1_oncc20=4", {{20, 127}});
  CHECK(centsAt(*r, 0.05) == Approx(100.0).margin(4.0));
  r = render(vibrato + "lfo2_freq_lfo1_oncc20=4", {{20, 0}});  // no link: 1 Hz
  CHECK(centsAt(*r, 0.05) == Approx(100.0 * std::sin(2.0 * 3.14159265 * 0.05)).margin(3.0));
  // A flex EG held at 1 adds 4 Hz from the start.
  r = render("lfo1_freq=1 lfo1_pitch=100 eg1_time1=0 eg1_level1=1 eg1_sustain=1 eg1_freq_lfo1=4");
  CHECK(centsAt(*r, 0.05) == Approx(100.0).margin(4.0));
  CHECK(centsAt(*r, 0.15) == Approx(-100.0).margin(4.0));
}

}  // namespace lfo_v2_tests
