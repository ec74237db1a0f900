// Region selection: velocity layers, round robin, lorand/hirand, keyswitches, CC
// conditions, program slots. Each region plays a short constant sample whose value
// names it; CC7 = 127 makes the part gain 1, so the output is that value.
#include <map>

#include "EngineTestSupport.h"
#include "catch.h"

namespace selection_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

// A region playing `value` for 16 frames, then ending by itself.
Region& tagRegion(TestProgram& tp, float value, int lokey = 0, int hikey = 127) {
  const int s = tp.addSample(std::make_unique<TestSample>(constant(value, 16)));
  Region& r = tp.addRegion(s, lokey, hikey);
  r.pitchKeytrack = 0.0f;  // 16 frames on every key
  return r;
}

// CC7 up, then each note in its own 64-frame block (playTags): what frame 4 shows.
std::vector<float> playTagsLoud(Renderer& r, const std::vector<TimedEvent>& notes) {
  r.run({cc(0, 7, 127)}, 64);
  return playTags(r, notes);
}

}  // namespace

TEST_CASE("velocity layers pick the right region", "[engine][select]") {
  TestProgram tp;
  tagRegion(tp, 0.1f).hivel = 40;
  Region& mid = tagRegion(tp, 0.2f);
  mid.lovel = 41;
  mid.hivel = 100;
  tagRegion(tp, 0.3f).lovel = 101;
  Renderer r;
  r.setProgram(tp.prepare());
  const auto seen = playTagsLoud(r, {noteOn(0, 60, 1), noteOn(0, 60, 40), noteOn(0, 60, 41), noteOn(0, 60, 100),
                                 noteOn(0, 60, 101), noteOn(0, 60, 127)});
  CHECK(seen == std::vector<float>{0.1f, 0.1f, 0.2f, 0.2f, 0.3f, 0.3f});
}

TEST_CASE("round robin with seq_length 3 plays A B C A B C", "[engine][select]") {
  TestProgram tp;
  for (int i = 0; i < 3; ++i) {
    Region& g = tagRegion(tp, 0.1f * static_cast<float>(i + 1));
    g.seqLength = 3;
    g.seqPosition = static_cast<uint8_t>(i + 1);
  }
  Renderer r;
  r.setProgram(tp.prepare());
  std::vector<TimedEvent> notes(6, noteOn(0, 60));
  notes.push_back(noteOn(0, 61));  // another key has its own counter: starts at A
  const auto seen = playTagsLoud(r, notes);
  CHECK(seen == std::vector<float>{0.1f, 0.2f, 0.3f, 0.1f, 0.2f, 0.3f, 0.1f});
}

TEST_CASE("lorand/hirand pick within ranges with the expected distribution", "[engine][select]") {
  TestProgram tp;
  tagRegion(tp, 0.1f).hirand = 0.25f;
  Region& mid = tagRegion(tp, 0.2f);
  mid.lorand = 0.25f;
  mid.hirand = 0.75f;
  tagRegion(tp, 0.4f).lorand = 0.75f;
  const auto runWithSeed = [&](uint32_t seed) {
    engine::EngineConfig config;
    config.randomSeed = seed;
    Renderer r(config);
    r.setProgram(tp.prepare());
    return playTagsLoud(r, std::vector<TimedEvent>(2000, noteOn(0, 60)));
  };
  const auto seen = runWithSeed(7);
  std::map<float, int> counts;
  for (float v : seen) ++counts[v];
  REQUIRE(counts.size() == 3);  // exactly one region per note: never a sum, never silence
  CHECK(counts[0.1f] / 2000.0 == Approx(0.25).margin(0.04));
  CHECK(counts[0.2f] / 2000.0 == Approx(0.50).margin(0.04));
  CHECK(counts[0.4f] / 2000.0 == Approx(0.25).margin(0.04));
  CHECK(runWithSeed(7) == seen);   // reproducible from the seed
  CHECK(runWithSeed(8) != seen);
}

TEST_CASE("keyswitches: sw_last with sw_default, sw_down, sw_previous", "[engine][select]") {
  TestProgram tp;
  for (int i = 0; i < 2; ++i) {
    Region& g = tagRegion(tp, 0.1f * static_cast<float>(i + 1), 48, 72);
    g.swLokey = 24;
    g.swHikey = 26;
    g.swLast = static_cast<int16_t>(24 + i);
    g.swDefault = 25;
  }
  Region& down = tagRegion(tp, 0.4f, 80, 80);
  down.swDown = 30;
  Region& prev = tagRegion(tp, 0.8f, 90, 90);
  prev.swPrevious = 89;
  Renderer r;
  r.setProgram(tp.prepare());
  auto seen = playTagsLoud(r, {noteOn(0, 60), noteOn(0, 24), noteOn(0, 60), noteOn(0, 26), noteOn(0, 60),
                           noteOn(0, 25), noteOn(0, 60)});
  // default 25 -> 0.2; keyswitch keys are silent; 24 -> 0.1; 26 selects nothing.
  CHECK(seen == std::vector<float>{0.2f, 0.0f, 0.1f, 0.0f, 0.0f, 0.0f, 0.2f});

  seen = playTagsLoud(r, {noteOn(0, 80), noteOn(0, 30), noteOn(0, 80), noteOff(0, 30), noteOn(0, 80)});
  CHECK(seen == std::vector<float>{0.0f, 0.0f, 0.4f, 0.0f, 0.0f});

  seen = playTagsLoud(r, {noteOn(0, 90), noteOn(0, 89), noteOn(0, 90), noteOn(0, 90)});
  CHECK(seen == std::vector<float>{0.0f, 0.0f, 0.8f, 0.0f});
}

TEST_CASE("locc/hicc use the current CC values; channel ranges", "[engine][select]") {
  TestProgram tp;
  Region& low = tagRegion(tp, 0.1f);
  low.ccConditions = {{1, 0.0f, 63 / 127.0f}};
  Region& high = tagRegion(tp, 0.2f);
  high.ccConditions = {{1, 64 / 127.0f, 1.0f}};
  Renderer r;
  r.setProgram(tp.prepare());
  const auto seen = playTagsLoud(r, {noteOn(0, 60), cc(0, 1, 100), noteOn(0, 60), cc(0, 1, 10), noteOn(0, 60)});
  CHECK(seen == std::vector<float>{0.1f, 0.0f, 0.2f, 0.0f, 0.1f});

  TestProgram chan;
  tagRegion(chan, 0.3f).lochan = 2;
  Renderer rc;
  rc.setProgram(chan.prepare(), 0);
  rc.setProgram(chan.program.get(), 1);
  const auto seenChan = playTagsLoud(rc, {noteOn(0, 60, 100, 0), cc(0, 7, 127, 1), noteOn(0, 60, 100, 1)});
  CHECK(seenChan == std::vector<float>{0.0f, 0.0f, 0.3f});
}

TEST_CASE("program change selects the instrument registered in a slot", "[engine][select]") {
  TestProgram a, b;
  tagRegion(a, 0.1f);
  tagRegion(b, 0.2f);
  Renderer r;
  engine::Command slot;
  slot.type = engine::CommandType::SetSlotProgram;
  slot.count = 0;
  slot.program = a.prepare();
  r.post(slot);
  slot.count = 5;
  slot.program = b.prepare();
  r.post(slot);
  const auto seen = playTagsLoud(r, {noteOn(0, 60), programChange(0, 0), noteOn(0, 60), programChange(0, 5),
                                 noteOn(0, 60), programChange(0, 9), noteOn(0, 60)});
  CHECK(seen == std::vector<float>{0.0f, 0.0f, 0.1f, 0.0f, 0.2f, 0.0f, 0.2f});

  // Slot 5 reloaded: the part playing it switches; nothing is handed back while
  // slot 0 and the part still hold their programs.
  TestProgram c;
  tagRegion(c, 0.3f);
  slot.program = c.prepare();
  r.post(slot);
  const auto after = playTagsLoud(r, {noteOn(0, 60)});
  CHECK(after == std::vector<float>{0.3f});
  std::vector<const engine::Program*> back;
  r.engine.collectGarbage([&](const engine::Program* p) { back.push_back(p); });
  CHECK(back == std::vector<const engine::Program*>{b.program.get()});
}

TEST_CASE("trigger=first plays with no other key held, trigger=legato only with one", "[engine][select]") {
  TestProgram tp;
  tagRegion(tp, 0.1f).trigger = Trigger::First;
  tagRegion(tp, 0.2f).trigger = Trigger::Legato;
  Renderer r;
  r.setProgram(tp.prepare());
  const auto seen = playTagsLoud(r, {noteOn(0, 60), noteOn(0, 62), noteOff(0, 60), noteOff(0, 62), noteOn(0, 64)});
  CHECK(seen == std::vector<float>{0.1f, 0.2f, 0.0f, 0.0f, 0.1f});
}

}  // namespace selection_tests
