// Controllers: set_cc defaults (program change, CC121), hd controllers above 127, the
// extended controllers notes, bend and aftertouch write, 14-bit pairs, controller-
// started regions (on_locc/on_hicc), tempo conditions, sw_vel. Each region plays a
// constant sample whose value names it; CC7 = 127 makes the part gain 1.
#include "EngineTestSupport.h"
#include "catch.h"
#include "core/Controllers.h"

namespace controller_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

// A region playing `value` for `frames` frames, then ending by itself.
Region& tagRegion(TestProgram& tp, float value, int lokey = 0, int hikey = 127, int64_t frames = 16) {
  const int s = tp.addSample(std::make_unique<TestSample>(constant(value, frames)));
  Region& r = tp.addRegion(s, lokey, hikey);
  r.pitchKeytrack = 0.0f;
  return r;
}

TimedEvent channelPressure(int64_t frame, int value) {
  return {frame, MidiEvent{0, 0xD0, static_cast<uint8_t>(value), 0}};
}
TimedEvent polyPressure(int64_t frame, int key, int value) {
  return {frame, MidiEvent{0, 0xA0, static_cast<uint8_t>(key), static_cast<uint8_t>(value)}};
}

// First frame from `from` on whose |value| exceeds a hair; -1 if none.
int64_t onset(const std::vector<float>& x, size_t from = 0) {
  for (size_t i = from; i < x.size(); ++i) {
    if (std::fabs(x[i]) > 1e-6f) return static_cast<int64_t>(i);
  }
  return -1;
}

engine::Command tempoCommand(float bpm) {
  engine::Command c;
  c.type = engine::CommandType::SetTempo;
  c.value = bpm;
  return c;
}

}  // namespace

TEST_CASE("set_cc defaults act before the first note; CC121 restores them", "[engine][controllers]") {
  const auto build = [](TestProgram& tp, float cc1Default) {
    tp.program->controllerDefaults = {{7, 1.0f}, {1, cc1Default}};
    tagRegion(tp, 0.5f).ccConditions = {{1, 64 / 127.0f, 1.0f}};  // locc1=64
  };
  TestProgram on, off;
  build(on, 64 / 127.0f);  // set_cc1=64: the parser's value
  build(off, 63 / 127.0f);
  Renderer a, b;
  a.setProgram(on.prepare());
  b.setProgram(off.prepare());
  CHECK(playTags(a, {noteOn(0, 60)}) == std::vector<float>{0.5f});  // no MIDI CC sent at all
  CHECK(playTags(b, {noteOn(0, 60)}) == std::vector<float>{0.0f});

  // CC1 moves it away; CC121 brings back set_cc1 (and keeps CC7, RP-015).
  const auto seen = playTags(a, {cc(0, 1, 10), noteOn(0, 60), cc(0, 121, 0), noteOn(0, 60)});
  CHECK(seen == std::vector<float>{0.0f, 0.0f, 0.0f, 0.5f});
}

TEST_CASE("hd controllers above 127 follow set_hdcc (locc226-style conditions)", "[engine][controllers]") {
  const auto seenWith = [](float hdDefault) {
    TestProgram tp;
    tp.program->controllerDefaults = {{7, 1.0f}, {226, hdDefault}};
    tagRegion(tp, 0.25f).ccConditions = {{226, 0.5f, 1.0f}};  // lohdcc226=0.5
    tagRegion(tp, 0.5f).ccConditions = {{226, 0.0f, 0.25f}};  // hihdcc226=0.25
    Renderer r;
    r.setProgram(tp.prepare());
    return playTags(r, {noteOn(0, 60)});
  };
  CHECK(seenWith(0.5f) == std::vector<float>{0.25f});
  CHECK(seenWith(0.2f) == std::vector<float>{0.5f});
  CHECK(seenWith(0.4f) == std::vector<float>{0.0f});
}

TEST_CASE("more than eight controller conditions on one region all count", "[engine][controllers]") {
  TestProgram tp;
  tp.program->controllerDefaults = {{7, 1.0f}};
  Region& r = tagRegion(tp, 0.5f);
  for (uint16_t n = 20; n < 32; ++n) r.ccConditions.push_back({n, 0.0f, 10 / 127.0f});
  Renderer e;
  e.setProgram(tp.prepare());
  const auto seen = playTags(e, {noteOn(0, 60), cc(0, 31, 11), noteOn(0, 60), cc(0, 31, 10), noteOn(0, 60)});
  CHECK(seen == std::vector<float>{0.5f, 0.0f, 0.0f, 0.0f, 0.5f});
}

TEST_CASE("extended controllers hold the note's values when its regions are matched", "[engine][controllers]") {
  TestProgram tp;
  tp.program->controllerDefaults = {{7, 1.0f}};
  // velocity (131) exactly 100, note number (133) exactly 62.
  tagRegion(tp, 0.125f).ccConditions = {{controllers::kNoteOnVelocity, 100 / 127.0f, 100 / 127.0f}};
  tagRegion(tp, 0.25f).ccConditions = {{controllers::kNoteNumber, 62 / 127.0f, 62 / 127.0f}};
  // bend (128) above +4096, channel aftertouch (129) >= 64 via lochanaft.
  tagRegion(tp, 0.5f).ccConditions = {{controllers::kPitchBend, 0.75f, 1.0f}};
  tagRegion(tp, 1.0f).lochanaft = 64;
  Renderer r;
  r.setProgram(tp.prepare());
  const auto seen = playTags(r, {noteOn(0, 60, 100), noteOn(0, 62, 99), noteOn(0, 61, 1), bend(0, 4200),
                                 noteOn(0, 61, 1), bend(0, 4000), channelPressure(0, 64), noteOn(0, 61, 1)});
  CHECK(seen == std::vector<float>{0.125f, 0.25f, 0.0f, 0.0f, 0.5f, 0.0f, 0.0f, 1.0f});
}

TEST_CASE("key delta, alternate and gate follow the notes", "[engine][controllers]") {
  TestProgram tp;
  tp.program->controllerDefaults = {{7, 1.0f}};
  // key delta (140, bipolar 0.5 + d/254): +5 exactly; |delta| (141) >= 12.
  tagRegion(tp, 0.125f).ccConditions = {{controllers::kKeyDelta, 0.5f + 5 / 254.0f, 0.5f + 5 / 254.0f}};
  tagRegion(tp, 0.25f).ccConditions = {{controllers::kKeyDeltaAbsolute, 12 / 127.0f, 1.0f}};
  Renderer r;
  r.setProgram(tp.prepare());
  const auto seen = playTags(r, {noteOn(0, 60), noteOn(0, 65), noteOn(0, 53), noteOn(0, 54)});
  CHECK(seen == std::vector<float>{0.0f, 0.125f, 0.25f, 0.0f});

  TestProgram alt;
  alt.program->controllerDefaults = {{7, 1.0f}};
  tagRegion(alt, 0.5f).ccConditions = {{controllers::kAlternate, 1.0f, 1.0f}};
  Renderer ra;
  ra.setProgram(alt.prepare());
  const auto alternating = playTags(ra, {noteOn(0, 60), noteOn(0, 60), noteOn(0, 60), noteOn(0, 60)});
  CHECK(alternating == std::vector<float>{0.5f, 0.0f, 0.5f, 0.0f});
}

TEST_CASE("polyphonic aftertouch conditions use the started key's pressure", "[engine][controllers]") {
  TestProgram tp;
  tp.program->controllerDefaults = {{7, 1.0f}};
  tagRegion(tp, 0.5f).lopolyaft = 50;
  Renderer r;
  r.setProgram(tp.prepare());
  const auto seen = playTags(r, {polyPressure(0, 60, 70), noteOn(0, 61), noteOn(0, 60), polyPressure(0, 60, 10),
                                 noteOn(0, 60)});
  CHECK(seen == std::vector<float>{0.0f, 0.0f, 0.5f, 0.0f, 0.0f});
}

TEST_CASE("set_realcc makes CC n and n + 32 one 14-bit controller", "[engine][controllers]") {
  TestProgram tp;
  controllers::ControllerDefault fine{1, 0.0f};
  fine.highResolution = true;
  tp.program->controllerDefaults = {{7, 1.0f}, fine};
  // Only 8191/16383 = 0.49997 falls in [0.4999, 0.5): no 7-bit value does (63 -> 0.496, 64 -> 0.504).
  tagRegion(tp, 0.5f).ccConditions = {{1, 0.4999f, 0.49999f}};
  Renderer r;
  r.setProgram(tp.prepare());
  const auto seen = playTags(r, {cc(0, 1, 63), cc(0, 33, 127), noteOn(0, 60), cc(0, 1, 64), noteOn(0, 60)});
  CHECK(seen == std::vector<float>{0.0f, 0.0f, 0.5f, 0.0f, 0.0f});
}

TEST_CASE("an on_locc64 region sounds when the pedal goes up, with no key held", "[engine][controllers]") {
  TestProgram tp;
  tp.program->controllerDefaults = {{7, 1.0f}};
  Region& up = tagRegion(tp, 0.5f, 0, 127, 400);
  up.ccTriggers = {{64, 0.0f, 63 / 127.0f}};  // on_locc64=0 on_hicc64=63
  up.noKey = true;
  up.pitchKeycenter = 60;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({noteOn(100, 60), noteOff(200, 60), cc(1000, 64, 127), cc(3077, 64, 0), cc(5000, 64, 0), cc(5100, 64, 20)},
        8000);
  // Notes never start it; the pedal going up starts it at the CC's frame, once.
  CHECK(onset(r.left) == 3077);
  CHECK(r.left[3077] == 0.5f);
  CHECK(onset(r.left, 3077 + 400) == -1);
  CHECK(r.engine.stats().notesStarted == 1);
}

TEST_CASE("an on_hicc region plays at its pitch_keycenter, full velocity", "[engine][controllers]") {
  TestProgram tp;
  tp.program->controllerDefaults = {{7, 1.0f}};
  const int s = tp.addSample(std::make_unique<TestSample>(sine(480.0, 48000.0, 48000)));
  Region& down = tp.addRegion(s);
  down.ccTriggers = {{64, 64 / 127.0f, 1.0f}};
  down.pitchKeycenter = 60;
  down.lokey = down.hikey = 72;  // the key range moves it an octave up
  down.ampVeltrack = 100.0f;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({noteOn(0, 30, 20), cc(0, 64, 100)}, 24000);  // neither the last note's velocity nor the CC value
  CHECK(measureHz(r.left, 1000, 20000, 48000.0) == Approx(960.0).epsilon(1e-3));
  float peak = 0.0f;
  for (size_t i = 0; i < 4000; ++i) peak = std::max(peak, std::fabs(r.left[i]));
  CHECK(peak == Approx(0.5f).epsilon(2e-3));
}

TEST_CASE("lobpm/hibpm follow the engine's tempo (120 until set)", "[engine][controllers]") {
  TestProgram tp;
  tp.program->controllerDefaults = {{7, 1.0f}};
  Region& slow = tagRegion(tp, 0.25f);
  slow.hibpm = 100.0f;
  tagRegion(tp, 0.5f).lobpm = 100.0f;
  Renderer r;
  r.setProgram(tp.prepare());
  CHECK(playTags(r, {noteOn(0, 60)}) == std::vector<float>{0.5f});
  r.post(tempoCommand(90.0f));
  CHECK(playTags(r, {noteOn(0, 60)}) == std::vector<float>{0.25f});
  r.post(tempoCommand(100.0f));  // lobpm <= tempo < hibpm
  CHECK(playTags(r, {noteOn(0, 60)}) == std::vector<float>{0.5f});
}

TEST_CASE("sw_vel=previous matches and plays the previous note's velocity", "[engine][controllers]") {
  TestProgram tp;
  tp.program->controllerDefaults = {{7, 1.0f}};
  Region& r0 = tagRegion(tp, 0.5f);
  r0.swVelPrevious = true;
  r0.lovel = 100;
  Renderer r;
  r.setProgram(tp.prepare());
  const auto seen = playTags(r, {noteOn(0, 60, 110), noteOn(0, 60, 20), noteOn(0, 60, 127)});
  CHECK(seen == std::vector<float>{0.0f, 0.5f, 0.0f});
}

TEST_CASE("a CC7 gain ramp is the same whatever blocks and events cut it", "[engine][controllers]") {
  TestProgram tp;
  tagRegion(tp, 0.5f, 0, 127, 48000);
  const std::vector<TimedEvent> song{noteOn(0, 60), cc(1000, 7, 40), noteOn(1030, 61), cc(3000, 7, 110)};
  const engine::Program* program = tp.prepare();
  std::vector<std::vector<float>> outs;
  for (const int block : {256, 1024, 7, 37}) {
    Renderer r({}, block);
    r.setProgram(program);
    r.run(song, 4096);
    outs.push_back(r.left);
  }
  // The ramp from CC7's old gain to its new one takes 64 frames from the event: the
  // 1024-frame blocks cut neither, 256-frame blocks cut the second at 3072, 7- and
  // 37-frame blocks cut both, and the note-on at 1030 cuts the first.
  CHECK(outs[0][1000] != outs[0][1064]);
  for (std::size_t i = 1; i < outs.size(); ++i) {
    std::size_t differing = 0;
    for (std::size_t k = 0; k < outs[0].size(); ++k) differing += outs[i][k] != outs[0][k] ? 1 : 0;
    INFO("render " << i);
    CHECK(differing == 0);
  }
}

}  // namespace controller_tests
