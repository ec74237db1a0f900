// The parts' SFZ effect buses in the engine: a program change crossfades the chains, and
// two parts playing one program keep their own effect states.
#include "EngineTestSupport.h"

namespace bus_effect_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr int64_t kSwap = 4800;  // the program change: 0.1 s in
constexpr int64_t kFade = 480;   // Engine's bus crossfade: 10 ms at 48 kHz

// A held constant 0.5 through a main-bus gain of `gainDb`, in slot `slot`.
void addGainProgram(TestProgram& t, float gainDb) {
  Region& r = t.addRegion(t.addSample(std::make_unique<TestSample>(constant(0.5f, 48000))));
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 0;
  r.loopEnd = 47999;
  BusEffect gain;
  gain.type = BusEffectType::Gain;
  gain.values[static_cast<size_t>(BusParam::Gain)] = gainDb;
  t.program->busLayout.effects.push_back(gain);
  t.prepare();
}

void setSlot(Renderer& r, int slot, const engine::Program* p) {
  engine::Command c;
  c.type = engine::CommandType::SetSlotProgram;
  c.count = slot;
  c.program = p;
  r.post(c);
}

}  // namespace

TEST_CASE("bus effects: a program change crossfades the old chain into the new one over 10 ms", "[engine][effects]") {
  TestProgram quiet, loud;
  addGainProgram(quiet, -20.0f);
  addGainProgram(loud, 0.0f);
  Renderer r;
  setSlot(r, 0, quiet.program.get());
  setSlot(r, 1, loud.program.get());
  r.run({programChange(0, 0), noteOn(1, 60), programChange(kSwap, 1)}, kSwap + 4 * kFade);
  const auto at = [&](int64_t f) { return r.left[static_cast<size_t>(f)]; };
  const float before = at(kSwap - 1), after = at(kSwap + 2 * kFade);
  INFO("before " << before << ", after " << after);
  CHECK(after / before == Approx(10.0f).epsilon(0.001));  // -20 dB -> 0 dB
  // A ramp, not a step: halfway through the fade, halfway between; no frame-to-frame
  // step larger than the fade's slope.
  CHECK(at(kSwap + kFade / 2) == Approx(0.5f * (before + after)).epsilon(0.01));
  CHECK(maxJump(r.left, static_cast<size_t>(kSwap - 10), static_cast<size_t>(kSwap + 2 * kFade)) <=
        1.01f * (after - before) / static_cast<float>(kFade));
}

TEST_CASE("bus effects: two parts playing one program keep their own controller-driven state",
          "[engine][effects]") {
  TestProgram t;
  addGainProgram(t, 0.0f);
  t.program->busLayout.effects[0].controllers.push_back({BusParam::Gain, 20, -20.0f});
  t.prepare();
  Renderer both, alone;
  for (int part = 0; part < 2; ++part) both.setProgram(t.program.get(), part);
  alone.setProgram(t.program.get(), 0);
  both.run({noteOn(0, 60, 100, 0), cc(0, 20, 127, 1), noteOn(0, 60, 100, 1)}, 9600);
  alone.run({noteOn(0, 60, 100, 0)}, 9600);
  // Once part 1's gain has settled (0.1 s: 10 smoothing time constants), part 0 at
  // 0 dB plus part 1 at -20 dB is 1.1 times part 0 alone.
  REQUIRE(alone.left[4800] > 0.1f);
  CHECK(both.left[4800] / alone.left[4800] == Approx(1.1f).epsilon(0.001));
  CHECK(both.left[9000] / alone.left[9000] == Approx(1.1f).epsilon(0.001));
}

}  // namespace bus_effect_tests
