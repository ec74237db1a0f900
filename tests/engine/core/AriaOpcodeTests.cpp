// ARIA opcodes in the engine: pan_random / position_random (bipolar, per note),
// position_keytrack / position_veltrack, resonance_random (unipolar dB, per note),
// fil_gain and sw_lolast / sw_hilast keyswitch ranges. Regions are set up directly (the parser side
// is tests/sfz/AriaOpcodeTests.cpp). CC7 = 127 makes the part gain 1.
#include <algorithm>
#include <cmath>
#include <set>

#include "EngineTestSupport.h"
#include "catch.h"

namespace aria_opcode_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr int64_t kNoteFrames = 128;

// The pan position (-1..1) that the constant-power law (engine/mod/Curves.h) gives for the
// output gains l, r: theta = atan2(r, l) = (p + 1) * pi / 4.
double panOf(float l, float r) { return std::atan2(static_cast<double>(r), static_cast<double>(l)) / (kPi / 4.0) - 1.0; }

// Plays key 60 `count` times, each in its own kNoteFrames block on one engine (so each
// note draws new random values); returns the pan seen at the block's frame 4.
std::vector<double> pansOfNotes(TestProgram& tp, int count, int key = 60, int velocity = 100) {
  Renderer out;
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127)}, kNoteFrames);
  std::vector<double> pans;
  for (int i = 0; i < count; ++i) {
    const auto start = static_cast<int64_t>(out.left.size());
    out.run({noteOn(start, key, velocity), noteOff(start + 32, key)}, kNoteFrames);
    const auto at = static_cast<size_t>(start + 4);
    REQUIRE(out.left[at] + out.right[at] > 0.1f);
    pans.push_back(panOf(out.left[at], out.right[at]));
  }
  return pans;
}

// A region playing a constant 0.5 for 64 frames, mono or stereo (both channels equal).
Region& constantRegion(TestProgram& tp, bool stereo) {
  const int s = tp.addSample(std::make_unique<TestSample>(constant(0.5f, 64), stereo ? constant(0.5f, 64) : std::vector<float>{}));
  Region& r = tp.addRegion(s);
  r.pitchKeytrack = 0.0f;
  return r;
}

// The draws are bipolar within +-limit, spread over both sides, and differ per note.
void checkBipolarSpread(const std::vector<double>& pans, double limit) {
  const auto [lo, hi] = std::minmax_element(pans.begin(), pans.end());
  CHECK(*lo >= -limit - 1e-4);
  CHECK(*hi <= limit + 1e-4);
  CHECK(*lo < -0.6 * limit);
  CHECK(*hi > 0.6 * limit);
  CHECK(std::set<double>(pans.begin(), pans.end()).size() == pans.size());
}

}  // namespace

TEST_CASE("pan_random: a bipolar draw per note within +-pan_random percent", "[engine][aria]") {
  TestProgram tp;
  Region& r = constantRegion(tp, false);
  for (double p : pansOfNotes(tp, 4)) CHECK(p == Approx(0.0).margin(1e-6));
  r.pan = 20.0f;
  r.panRandom = 30.0f;
  std::vector<double> pans = pansOfNotes(tp, 60);
  for (double& p : pans) p -= 0.2;  // around the region's pan
  checkBipolarSpread(pans, 0.3);
  tp.program->regions[0].panRandom = -30.0f;  // the reference allows -100..100: same spread
  pans = pansOfNotes(tp, 60);
  for (double& p : pans) p -= 0.2;
  checkBipolarSpread(pans, 0.3);
}

TEST_CASE("position_random: bipolar per note for stereo files; mono files ignore position", "[engine][aria]") {
  TestProgram tp;
  constantRegion(tp, true).positionRandom = 40.0f;
  checkBipolarSpread(pansOfNotes(tp, 60), 0.4);

  TestProgram mono;
  constantRegion(mono, false).positionRandom = 40.0f;
  for (double p : pansOfNotes(mono, 8)) CHECK(p == Approx(0.0).margin(1e-6));
}

TEST_CASE("position_keytrack and position_veltrack move a stereo file's position", "[engine][aria]") {
  TestProgram tp;
  Region& r = constantRegion(tp, true);
  r.position = 10.0f;
  r.positionKeycenter = 62;
  r.positionKeytrack = 5.0f;    // percent per key
  r.positionVeltrack = -60.0f;  // percent at velocity 127
  // position = 10 + (key - 62) * 5 - 60 * velocity / 127
  CHECK(pansOfNotes(tp, 1, 66, 127)[0] == Approx(0.01 * (10.0 + 20.0 - 60.0)).margin(1e-4));
  CHECK(pansOfNotes(tp, 1, 62, 64)[0] == Approx(0.01 * (10.0 - 60.0 * 64.0 / 127.0)).margin(1e-4));
  CHECK(pansOfNotes(tp, 1, 50, 1)[0] == Approx(0.01 * (10.0 - 60.0 - 60.0 / 127.0)).margin(1e-4));
  CHECK(pansOfNotes(tp, 1, 100, 127)[0] == Approx(1.0).margin(1e-4));  // 10 + 190 - 60: clamped right

  TestProgram mono;
  Region& m = constantRegion(mono, false);
  m.positionKeytrack = 5.0f;
  m.positionVeltrack = -60.0f;
  CHECK(pansOfNotes(mono, 1, 66, 127)[0] == Approx(0.0).margin(1e-6));
}

TEST_CASE("resonance_random: [0, resonance_random] dB more resonance per note", "[engine][aria]") {
  // A sine at the cutoff of a 2-pole low-pass: its gain there is Q = 10^(dB/20)/sqrt(2),
  // so the level in dB + 3.01 is the resonance the note drew.
  constexpr double kRate = 48000.0, kHz = 1000.0;
  constexpr int64_t kFrames = 4800;
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(sine(kHz, kRate, kFrames)));
  Region& r = tp.addRegion(s);
  r.cutoff = static_cast<float>(kHz);
  r.filType = FilterType::Lpf2p;
  r.resonance = 2.0f;
  r.resonanceRandom = 12.0f;
  Renderer out;
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127)}, 64);
  std::vector<double> drawn;
  for (int i = 0; i < 40; ++i) {
    const auto start = static_cast<int64_t>(out.left.size());
    out.run({noteOn(start, 60)}, kFrames + 256);
    const auto from = out.left.begin() + start + kFrames / 2, to = out.left.begin() + start + kFrames - 64;
    float peak = 0.0f;
    for (auto it = from; it != to; ++it) peak = std::max(peak, std::fabs(*it));
    drawn.push_back(20.0 * std::log10(static_cast<double>(peak) / 0.5) + 20.0 * std::log10(std::sqrt(2.0)) - 2.0);
  }
  const auto [lo, hi] = std::minmax_element(drawn.begin(), drawn.end());
  CHECK(*lo >= -0.1);  // unipolar: never below the region's resonance
  CHECK(*hi <= 12.1);
  CHECK(*lo < 3.0);
  CHECK(*hi > 9.0);
  double mean = 0.0;
  for (double d : drawn) mean += d / static_cast<double>(drawn.size());
  CHECK(mean == Approx(6.0).margin(1.5));
}

TEST_CASE("fil_gain: a peq at a sine's frequency changes its level by fil_gain dB", "[engine][aria]") {
  // The peak level of a 1 kHz sine (amplitude 0.5) through peq at 1 kHz, with the cutoff
  // fixed and with fileg moving it (depth 1200 cents that decays to 0 at once), which
  // sets the filter every kFilterStep frames.
  constexpr double kRate = 48000.0, kHz = 1000.0;
  constexpr int64_t kFrames = 4800;
  for (float depth : {0.0f, 1200.0f})
    for (float gain : {-12.0f, 6.0f}) {
      TestProgram tp;
      Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(sine(kHz, kRate, kFrames))));
      r.cutoff = static_cast<float>(kHz);
      r.filType = FilterType::Peq;
      r.filGain = gain;
      r.fileg.depth = depth;
      Renderer out;
      out.setProgram(tp.prepare());
      out.run({cc(0, 7, 127), noteOn(0, 60)}, kFrames);
      float peak = 0.0f;
      for (auto it = out.left.begin() + kFrames / 2; it != out.left.begin() + kFrames - 64; ++it) peak = std::max(peak, std::fabs(*it));
      INFO("fileg depth " << depth << " fil_gain " << gain);
      CHECK(20.0 * std::log10(static_cast<double>(peak) / 0.5) == Approx(static_cast<double>(gain)).margin(0.1));
    }
}

TEST_CASE("sw_lolast/sw_hilast: the region plays while the last keyswitch lies in the range", "[engine][aria]") {
  TestProgram tp;
  const auto tag = [&](float value, int lo, int hi) -> Region& {
    const int s = tp.addSample(std::make_unique<TestSample>(constant(value, 16)));
    Region& r = tp.addRegion(s, 60, 60);
    r.pitchKeytrack = 0.0f;
    r.swLolast = static_cast<int16_t>(lo);
    r.swHilast = static_cast<int16_t>(hi);
    return r;
  };
  tag(0.1f, 24, 26);
  tag(0.2f, 27, 27);
  const engine::Program* program = tp.prepare();
  for (int key = 0; key < 128; ++key) {
    INFO("key " << key);
    CHECK(program->isKeyswitch[static_cast<size_t>(key)] == (key >= 24 && key <= 27));
  }
  Renderer out;
  out.setProgram(program);
  out.run({cc(0, 7, 127)}, 64);
  std::vector<float> seen;
  for (int key : {60, 25, 60, 24, 60, 27, 60, 26, 60, 28, 60}) {
    const auto start = static_cast<int64_t>(out.left.size());
    out.run({noteOn(start, key), noteOff(start + 8, key)}, 64);
    seen.push_back(out.left[static_cast<size_t>(start + 4)]);
  }
  // No keyswitch yet: silent. Keyswitch keys are silent; 28 is no keyswitch (state kept).
  CHECK(seen == std::vector<float>{0.0f, 0.0f, 0.1f, 0.0f, 0.1f, 0.0f, 0.2f, 0.0f, 0.1f, 0.0f, 0.1f});

  tp.program->regions[0].swLokey = 20;  // a narrowed sw_lokey..sw_hikey marks its keys too
  tp.program->regions[0].swHikey = 30;
  CHECK(tp.prepare()->isKeyswitch[20]);
  CHECK(tp.prepare()->isKeyswitch[30]);
  CHECK_FALSE(tp.prepare()->isKeyswitch[31]);
}

}  // namespace aria_opcode_tests
