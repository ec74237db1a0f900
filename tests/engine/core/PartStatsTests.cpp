// Per-part stats: voice counts, the peak of each part's own mix (post part gain and
// pan) and the held keys the engine publishes in EngineStats::parts.
#include <algorithm>
#include <cmath>

#include "EngineTestSupport.h"
#include "catch.h"

namespace part_stats_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr int kBlock = 256;
constexpr int64_t kLead = 10 * kBlock;  // frames played before the block under test

struct TwoParts {
  TestProgram a, b;
  TwoParts() {
    const int sa = a.addSample(std::make_unique<TestSample>(sine(440.0, 48000.0, 96000, 0.5f)));
    a.addRegion(sa);
    const int sb = b.addSample(std::make_unique<TestSample>(sine(300.0, 48000.0, 96000, 0.8f)));
    b.addRegion(sb);
  }
};

engine::Command partCommand(engine::CommandType type, int part, float value, bool flag = false) {
  engine::Command c;
  c.type = type;
  c.part = static_cast<int8_t>(part);
  c.value = value;
  c.flag = flag;
  return c;
}

// Part 0 plays two keys of program a; part 5 one key of program b, 6 dB down and panned.
// soloPart >= 0 solos that part. Renders kLead frames, then one block (the last call).
void playTwoParts(Renderer& out, TwoParts& programs, int soloPart) {
  out.setProgram(programs.a.prepare(), 0);
  out.setProgram(programs.b.prepare(), 5);
  out.post(partCommand(engine::CommandType::SetPartVolume, 5, -6.0f));
  out.post(partCommand(engine::CommandType::SetPartPan, 5, -0.5f));
  if (soloPart >= 0) out.post(partCommand(engine::CommandType::SetPartSolo, soloPart, 0.0f, true));
  out.run({noteOn(0, 60, 100, 0), noteOn(100, 64, 100, 0), noteOn(300, 55, 100, 5)}, kLead);
  out.run({}, kBlock);
}

float lastBlockPeak(const Renderer& out) {
  float peak = 0.0f;
  for (size_t i = static_cast<size_t>(kLead); i < out.left.size(); ++i)
    peak = std::max({peak, std::fabs(out.left[i]), std::fabs(out.right[i])});
  return peak;
}

}  // namespace

TEST_CASE("per-part voice counts are exact and peaks match each part's solo render", "[engine][stats]") {
  TwoParts programs;
  Renderer both({}, kBlock);
  playTwoParts(both, programs, -1);
  const engine::EngineStats stats = both.engine.stats();
  CHECK(stats.activeVoices == 3);
  for (int p = 0; p < limits::kChannels; ++p) {
    const uint32_t expected = p == 0 ? 2U : p == 5 ? 1U : 0U;
    CHECK(stats.parts[static_cast<size_t>(p)].voices == expected);
    if (expected == 0) CHECK(stats.parts[static_cast<size_t>(p)].peak == 0.0f);
  }
  for (const int part : {0, 5}) {
    INFO("part " << part);
    TwoParts fresh;
    Renderer solo({}, kBlock);
    playTwoParts(solo, fresh, part);
    const float peak = stats.parts[static_cast<size_t>(part)].peak;
    CHECK(peak > 0.05f);
    CHECK(peak == Approx(lastBlockPeak(solo)).epsilon(1e-6));
    CHECK(solo.engine.stats().parts[static_cast<size_t>(part)].peak == Approx(peak).epsilon(1e-6));
  }
  // Part 5 at -6 dB: its peak is below its sample's 0.8 times the pan law's largest gain.
  CHECK(stats.parts[5].peak < 0.8f);
}

TEST_CASE("held keys follow note-on and note-off; the sustain pedal does not hold them", "[engine][stats]") {
  TwoParts programs;
  Renderer out({}, kBlock);
  out.setProgram(programs.a.prepare(), 2);
  out.run({noteOn(0, 60, 100, 2), noteOn(10, 127, 90, 2), noteOn(20, 0, 80, 2)}, kBlock);
  engine::PartStats part = out.engine.stats().parts[2];
  CHECK(part.held(60));
  CHECK(part.held(127));
  CHECK(part.held(0));
  CHECK_FALSE(part.held(61));
  CHECK_FALSE(out.engine.stats().parts[0].held(60));
  CHECK(part.voices == 3);

  out.run({cc(kBlock, 64, 127, 2), noteOff(kBlock + 5, 60, 2)}, kBlock);
  part = out.engine.stats().parts[2];
  CHECK_FALSE(part.held(60));  // released under the pedal: not held, still sounding
  CHECK(part.held(127));
  CHECK(part.voices == 3);

  out.run({cc(2 * kBlock, 64, 0, 2), noteOff(2 * kBlock + 1, 127, 2)}, 4 * kBlock);
  part = out.engine.stats().parts[2];
  CHECK(part.heldKeys[0] == 1U);  // key 0 only
  CHECK(part.heldKeys[1] == 0U);
  CHECK(part.voices == 1);
}

// The player's control strip and /spindle/part/controls read the labelled
// controllers' values from the engine (Engine::controllerValue) and compare the part's
// program (PartStats::program) with the one they loaded.
TEST_CASE("labelled controllers' values and the part's program are published", "[engine][stats]") {
  TestProgram program;
  program.addRegion(program.addSample(std::make_unique<TestSample>(sine(440.0, 48000.0, 9600))));
  program.program->controllerLabels = {{7, "Volume", {}}, {74, "Brightness", {}}, {300, "Room", {}}, {7, "Again", {}}};
  const engine::Program* p = program.prepare();
  CHECK(p->publishedControllers == std::vector<uint16_t>{7, 74, 300});
  Renderer out({}, kBlock);
  CHECK(out.engine.stats().parts[3].program == nullptr);
  out.setProgram(p, 3);
  out.run({cc(10, 74, 127, 3), cc(20, 7, 64, 3), cc(30, 75, 127, 3), cc(40, 74, 32, 2)}, kBlock);
  CHECK(out.engine.stats().parts[3].program == p);
  CHECK(out.engine.stats().parts[2].program == nullptr);
  CHECK(out.engine.controllerValue(3, 74) == Approx(1.0f));
  CHECK(out.engine.controllerValue(3, 7) == Approx(64.0f / 127.0f));
  CHECK(out.engine.controllerValue(3, 75) == 0.0f);  // not labelled: not published
  CHECK(out.engine.controllerValue(2, 74) == 0.0f);  // part 2 plays nothing
  CHECK(out.engine.controllerValue(3, 512) == 0.0f);
  CHECK(out.engine.controllerValue(16, 7) == 0.0f);
  out.run({cc(0, 74, 0, 3)}, kBlock);  // absolute frame 0 lands at the next block's start
  CHECK(out.engine.controllerValue(3, 74) == 0.0f);
}

}  // namespace part_stats_tests
