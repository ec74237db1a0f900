// SFZ v2 opcodes in the engine: pan_keytrack/pan_veltrack, phase, loprog/hiprog,
// bend_stepup/bend_stepdown, bend_smooth, stop_locc/stop_hicc, lotimer/hitimer, delay_beats,
// stop_beats, delay_samples.
// Levels are read after the gain ramp (frame 500 of a note), tolerance Approx's
// default; frequencies from zero crossings, 1 cent.
#include "EngineTestSupport.h"
#include "catch.h"

namespace v2_opcode_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr float kSqrt2 = 1.41421356f;

float peak(const std::vector<float>& x, size_t from, size_t to) {
  float m = 0.0f;
  for (size_t i = from; i < to && i < x.size(); ++i) m = std::max(m, std::fabs(x[i]));
  return m;
}

// The engine's constant-power pan law (engine/mod/Curves.h) at pan p (-1..1).
float panLeft(float p) { return kSqrt2 * std::cos((p + 1.0f) * 0.785398163f); }
float panRight(float p) { return kSqrt2 * std::sin((p + 1.0f) * 0.785398163f); }

struct Stereo {
  float left, right;
};
Stereo levelAt500(TestProgram& tp, int key, int velocity) {
  Renderer out;
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, key, velocity)}, 600);
  return {out.left[500], out.right[500]};
}

double bentHz(TestProgram& tp, int bendValue) {
  engine::EngineConfig config;
  config.quality = engine::Quality::Hermite;
  Renderer r(config);
  r.setProgram(tp.prepare());
  r.run({bend(0, bendValue), noteOn(0, 69)}, 30000);
  return measureHz(r.left, 2000, 26000, kRate);
}

}  // namespace

namespace {

// The frame of the first non-zero output, or -1.
int64_t firstSound(const std::vector<float>& x) {
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] != 0.0f) return static_cast<int64_t>(i);
  return -1;
}

}  // namespace

TEST_CASE("pan_keytrack and pan_veltrack move the pan from pan_keycenter", "[engine][gain][v2]") {
  TestProgram tp;
  Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(constant(0.5f, 4800))));
  r.panKeytrack = 10.0f;  // 10 % per key from key 60
  Stereo s = levelAt500(tp, 65, 127);
  CHECK(s.left == Approx(0.5f * panLeft(0.5f)));
  CHECK(s.right == Approx(0.5f * panRight(0.5f)));
  s = levelAt500(tp, 60, 127);
  CHECK(s.left == Approx(0.5f));
  CHECK(s.right == Approx(0.5f));

  tp.program->regions[0].panKeycenter = 70;  // key 65 is 5 keys below: -50 %
  s = levelAt500(tp, 65, 127);
  CHECK(s.left == Approx(0.5f * panLeft(-0.5f)));
  CHECK(s.right == Approx(0.5f * panRight(-0.5f)));

  tp.program->regions[0].panKeytrack = 0.0f;
  tp.program->regions[0].panVeltrack = -100.0f;  // velocity 127: hard left
  s = levelAt500(tp, 60, 127);
  CHECK(s.left == Approx(0.5f * kSqrt2));
  CHECK(s.right == Approx(0.0f).margin(1e-6));
  tp.program->regions[0].panVeltrack = 50.0f;  // velocity 64: 50 * 64/127 %
  s = levelAt500(tp, 60, 64);
  const float p = 0.5f * 64.0f / 127.0f;
  CHECK(s.left == Approx(0.5f * panLeft(p)));
  CHECK(s.right == Approx(0.5f * panRight(p)));

  // Both, on top of pan: 20 + (-2 * -5) + 30 = 60 %.
  tp.program->regions[0].pan = 20.0f;
  tp.program->regions[0].panKeytrack = -5.0f;
  tp.program->regions[0].panKeycenter = 62;
  tp.program->regions[0].panVeltrack = 30.0f;
  s = levelAt500(tp, 60, 127);
  CHECK(s.left == Approx(0.5f * panLeft(0.6f)));
  CHECK(s.right == Approx(0.5f * panRight(0.6f)));
}

TEST_CASE("phase=invert inverts the region's output", "[engine][gain][v2]") {
  TestProgram tp;
  const int sample = tp.addSample(std::make_unique<TestSample>(constant(0.5f, 4800)));
  Region& r = tp.addRegion(sample, 60, 60);
  r.phaseInvert = true;
  r.pan = 30.0f;
  Stereo s = levelAt500(tp, 60, 127);
  CHECK(s.left == Approx(-0.5f * panLeft(0.3f)));
  CHECK(s.right == Approx(-0.5f * panRight(0.3f)));

  // An inverted copy of a normal region cancels it exactly.
  TestProgram both;
  const int b = both.addSample(std::make_unique<TestSample>(sine(440.0, kRate, 4800)));
  both.addRegion(b);
  both.addRegion(b).phaseInvert = true;
  Renderer out;
  out.setProgram(both.prepare());
  out.run({noteOn(0, 60, 127)}, 4000);
  CHECK(peak(out.left, 0, 4000) == 0.0f);
  CHECK(peak(out.right, 0, 4000) == 0.0f);
}

TEST_CASE("loprog/hiprog follow the part's last program change", "[engine][select][v2]") {
  TestProgram tp;
  Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(constant(0.5f, 48000))));
  r.loprog = 5;
  r.hiprog = 9;
  Renderer out;
  out.setProgram(tp.prepare());
  // Program changes to empty slots keep the part's instrument; the number still counts.
  out.run({cc(0, 7, 127), noteOn(0, 60), noteOff(2000, 60), programChange(3000, 5), noteOn(4000, 60),
           noteOff(6000, 60), programChange(7000, 9), noteOn(8000, 60), noteOff(10000, 60),
           programChange(11000, 10), noteOn(12000, 60), noteOff(14000, 60)},
          16000);
  CHECK(peak(out.left, 0, 2000) == 0.0f);  // program 0 before any change
  CHECK(out.left[4500] == Approx(0.5f));
  CHECK(out.left[8500] == Approx(0.5f));
  CHECK(peak(out.left, 11000, 16000) == 0.0f);
}

TEST_CASE("bend_stepup and bend_stepdown quantise their direction, bend_step the other", "[engine][pitch][v2]") {
  TestProgram tp;
  Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(sine(440.0, kRate, 48000))));
  r.pitchKeycenter = 69;
  r.bendUp = 200.0f;
  r.bendDown = -200.0f;
  r.bendStep = 100;
  r.bendStepDown = 1;  // 3000 of 8192 down: -73.24 cents, unquantised
  const double down = -200.0 * 3000.0 / 8192.0;
  CHECK(std::fabs(centsBetween(bentHz(tp, 3000), 440.0 * std::exp2(100.0 / 1200.0))) < 1.0);  // 73.25 -> 100
  CHECK(std::fabs(centsBetween(bentHz(tp, -3000), 440.0 * std::exp2(down / 1200.0))) < 1.0);
  tp.program->regions[0].bendStepUp = 50;  // 73.25 -> 50
  tp.program->regions[0].bendStepDown = 0;  // not set: bend_step's 100 -> -100
  CHECK(std::fabs(centsBetween(bentHz(tp, 3000), 440.0 * std::exp2(50.0 / 1200.0))) < 1.0);
  CHECK(std::fabs(centsBetween(bentHz(tp, -3000), 440.0 * std::exp2(-100.0 / 1200.0))) < 1.0);
}

TEST_CASE("bend_smooth glides to a new bend in bend_smooth ms", "[engine][pitch][v2]") {
  TestProgram tp;
  Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(sine(440.0, kRate, 192000))));
  r.pitchKeycenter = 69;
  r.bendDown = -1200.0f;
  r.bendSmooth = 100.0f;  // 4800 frames
  Renderer out;
  out.setProgram(tp.prepare());
  out.run({noteOn(0, 69), bend(24000, -8192)}, 120000);
  const auto cents = [&](size_t from, size_t to) { return centsBetween(measureHz(out.left, from, to, kRate), 440.0); };
  CHECK(std::fabs(cents(1000, 23000)) < 1.0);
  // A straight glide in cents, measured as mean frequency: 0..50 ms -291 cents, 50..100 ms
  // -890, then the target (one step per frame, wherever blocks end). sfizz_render
  // plays -313, -815 and -1193 (100..200 ms) for the same bend_smooth=100.
  CHECK(cents(24000, 26400) == Approx(-291.0).margin(15.0));
  CHECK(cents(26400, 28800) == Approx(-890.0).margin(15.0));
  CHECK(cents(28800, 33600) == Approx(-1200.0).margin(10.0));
  CHECK(std::fabs(cents(33600, 118000) + 1200.0) < 1.0);
}

TEST_CASE("stop_locc/stop_hicc release the region's voices on a value in range", "[engine][controllers][v2]") {
  TestProgram tp;
  Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(constant(0.5f, 96000))));
  r.stopCcs.push_back(CcCondition{4, 100.0f / 127.0f, 120.0f / 127.0f});
  Renderer out;
  out.setProgram(tp.prepare());
  out.run({noteOn(0, 60), cc(5000, 4, 50), cc(6000, 5, 110), cc(7000, 4, 121), cc(10000, 4, 110)}, 14000);
  CHECK(peak(out.left, 9000, 10000) > 0.1f);  // out of range or another controller: still sounding
  CHECK(peak(out.left, 10200, 14000) == 0.0f);  // ampeg_release 1 ms

  // Held by the sustain pedal, or one_shot: stopped all the same.
  tp.program->regions[0].loopMode = LoopMode::OneShot;
  tp.program->regions[0].loopModeSet = true;
  Renderer held;
  held.setProgram(tp.prepare());
  held.run({cc(0, 64, 127), noteOn(0, 60), noteOff(2000, 60), cc(10000, 4, 100)}, 14000);
  CHECK(peak(held.left, 9000, 10000) > 0.1f);
  CHECK(peak(held.left, 10200, 14000) == 0.0f);
}

TEST_CASE("lotimer/hitimer: seconds since the part's previous note-on", "[engine][select][v2]") {
  TestProgram tp;
  Region& a = tp.addRegion(tp.addSample(std::make_unique<TestSample>(constant(0.25f, 4800))), 62, 62);
  a.hitimer = 0.5f;  // only within 0.5 s of the previous note-on
  Region& b = tp.addRegion(tp.addSample(std::make_unique<TestSample>(constant(0.5f, 4800))), 64, 64);
  b.lotimer = 1.0f;  // only 1 s or more after it
  Renderer out;
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 62), noteOff(2000, 62),    // no previous note: "forever" ago
           noteOn(12000, 64), noteOff(14000, 64),              // 0.25 s: b silent
           noteOn(24000, 62), noteOff(26000, 62),              // 0.25 s: a plays
           noteOn(96000, 64), noteOff(98000, 64),              // 1.5 s: b plays
           noteOn(192000, 62), noteOff(194000, 62)},           // 2 s: a silent
          196000);
  CHECK(peak(out.left, 0, 2000) == 0.0f);
  CHECK(peak(out.left, 12000, 14000) == 0.0f);
  CHECK(out.left[24500] == Approx(0.25f));
  CHECK(out.left[96500] == Approx(0.5f));
  CHECK(peak(out.left, 192000, 196000) == 0.0f);
}

TEST_CASE("delay_beats and stop_beats count beats of the engine's tempo", "[engine][timing][v2]") {
  TestProgram tp;
  Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(constant(0.5f, 96000))));
  r.delayBeats = 0.5f;
  Renderer at120;
  at120.setProgram(tp.prepare());
  at120.run({cc(0, 7, 127), noteOn(1000, 60)}, 20000);
  CHECK(firstSound(at120.left) == 1000 + 12000);  // half a beat at 120 bpm

  engine::Command tempo;
  tempo.type = engine::CommandType::SetTempo;
  tempo.value = 90.0f;  // one beat = 32000 frames
  tp.program->regions[0].delay = 0.1f;
  tp.program->regions[0].stopBeats = 0.25f;
  Renderer at90;
  at90.post(tempo);
  at90.setProgram(tp.prepare());
  at90.run({cc(0, 7, 127), noteOn(1000, 60)}, 40000);
  const int64_t start = 1000 + 4800 + 16000;  // delay plus half a beat
  CHECK(firstSound(at90.left) == start);
  CHECK(at90.left[static_cast<size_t>(start + 7999)] == Approx(0.5f));  // a quarter beat sounding
  CHECK(at90.left[static_cast<size_t>(start + 8000) + 10] < 0.5f);      // released there (1 ms)
  CHECK(peak(at90.left, static_cast<size_t>(start + 8200), 40000) == 0.0f);
}

TEST_CASE("delay_samples and delay_samples_onccN postpone the region by output frames", "[engine][timing][v2]") {
  TestProgram tp;
  Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(constant(0.5f, 96000))));
  r.delaySamples = 333;
  r.ccModulationCount = 1;
  r.ccModulations[0] = CcModulation{20, ModTarget::DelaySamples, 0, 1000.0f, -1.0f, 0.0f};
  for (const int value : {0, 127}) {
    Renderer out;
    out.setProgram(tp.prepare());
    out.run({cc(0, 7, 127), cc(0, 20, static_cast<uint8_t>(value)), noteOn(1000, 60)}, 8000);
    CAPTURE(value);
    CHECK(firstSound(out.left) == 1000 + 333 + (value == 127 ? 1000 : 0));
  }
}

}  // namespace v2_opcode_tests
