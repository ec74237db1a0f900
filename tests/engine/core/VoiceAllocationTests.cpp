// Voice allocation: stealing at the polyphony limit (no click, exact onsets, stats),
// victim order, and Program lifetimes through the trash FIFO.
#include "EngineTestSupport.h"
#include "catch.h"

namespace voice_allocation_tests {

using namespace spindle;
using namespace spindle::test;

TEST_CASE("voice stealing at the polyphony limit: no click, exact onsets, stats", "[engine][voices]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(sine(220.0, 48000.0, 96000, 0.2f)));
  Region& r = tp.addRegion(s);
  r.pitchKeytrack = 0.0f;
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 0;
  r.loopEnd = 96000 - 1;
  engine::EngineConfig c;
  c.polyphony = 4;
  Renderer out(c);
  out.setProgram(tp.prepare());
  std::vector<TimedEvent> events{cc(0, 7, 127)};
  for (int i = 0; i < 10; ++i) events.push_back(noteOn(1000 + i * 1000 + 37 * i, 50 + i));
  out.run(events, 13000);

  const auto st = out.engine.stats();
  CHECK(st.notesStarted == 10);
  CHECK(st.voicesStolen == 6);
  CHECK(st.activeVoices == 4);
  CHECK(st.peakVoices <= 5);
  // Five 0.2 sines (four live, one fading) change by at most 5 * 0.2 * 2*pi*220/48000
  // per frame; cutting a voice dead would jump by up to 0.2.
  CHECK(maxJump(out.left, 0, out.left.size()) < 5 * 0.2f * 2.0f * 3.1416f * 220.0f / 48000.0f + 0.002f);
}

TEST_CASE("the oldest released voice is stolen first", "[engine][voices]") {
  TestProgram tp;
  for (int k = 0; k < 4; ++k) {
    const int s = tp.addSample(std::make_unique<TestSample>(constant(0.01f * static_cast<float>(1 << k), 96000)));
    Region& r = tp.addRegion(s, 60 + k, 60 + k);
    r.ampeg.release = 2.0f;
  }
  engine::EngineConfig c;
  c.polyphony = 3;
  Renderer out(c);
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 60), noteOn(10, 61), noteOn(20, 62), noteOff(100, 61), noteOn(1000, 63)}, 2000);
  CHECK(out.left[1999] == Approx(0.01f + 0.04f + 0.08f));  // 61 (0.02) was stolen
  CHECK(out.engine.stats().voicesStolen == 1);
}

TEST_CASE("without released voices the quietest is stolen", "[engine][voices]") {
  TestProgram tp;
  const float values[3] = {0.3f, 0.05f, 0.2f};
  for (int k = 0; k < 3; ++k) {
    const int s = tp.addSample(std::make_unique<TestSample>(constant(values[k], 96000)));
    tp.addRegion(s, 60 + k, 60 + k);
  }
  engine::EngineConfig c;
  c.polyphony = 2;
  Renderer out(c);
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 61), noteOn(10, 60), noteOn(1000, 62)}, 2000);
  CHECK(out.left[1999] == Approx(0.3f + 0.2f));
}

TEST_CASE("a replaced Program comes back once, after its last voice ended", "[engine][garbage]") {
  TestProgram a, b;
  const int s = a.addSample(std::make_unique<TestSample>(constant(0.5f, 4800)));
  a.addRegion(s);
  Renderer out;
  out.setProgram(a.prepare());
  out.run({noteOn(0, 60)}, 256);
  out.setProgram(b.prepare());
  std::vector<const engine::Program*> back;
  const auto collect = [&](const engine::Program* p) { back.push_back(p); };
  out.run({}, 256);  // a is detached but its voice still sounds
  out.engine.collectGarbage(collect);
  CHECK(back.empty());
  CHECK(out.right[300] != 0.0f);
  out.run({}, 5000);  // the voice ends at frame 4800
  out.engine.collectGarbage(collect);
  CHECK(back == std::vector<const engine::Program*>{a.program.get()});
  out.engine.collectGarbage(collect);
  CHECK(back.size() == 1);

  out.engine.collectAllPrograms(collect);  // shutdown: b is still attached
  CHECK(back == std::vector<const engine::Program*>{a.program.get(), b.program.get()});
}

TEST_CASE("collectGarbage() without a disposer deletes what comes back", "[engine][garbage]") {
  auto* owned = new engine::Program();
  owned->prepare();
  Renderer out;
  out.setProgram(owned);
  out.run({}, 64);
  out.setProgram(nullptr);
  out.run({}, 64);
  out.engine.collectGarbage();  // deletes `owned` (ASan would report a leak otherwise)
  CHECK(out.engine.stats().framesRendered == 128);
}

}  // namespace voice_allocation_tests
