// The player's bypass of a part's instrument effects (CommandType::SetPartEffectBypass),
// through the real Loader and Engine: an SFZ with a gain of -12 dB and a lowpass on its
// main bus plays white noise; bypassing the gain raises the level by 12 dB once the
// 5 ms crossfade is over, with no jump between frames larger than the signal's own, and
// un-bypassing brings it back. The lowpass stays in, so the spectrum does not change.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <vector>

#include "NoiseSample.h"
#include "RenderSupport.h"
#include "Spectrum.h"
#include "session/Loader.h"
#include "catch.h"
#include "core/MidiEvent.h"
#include "core/PartEffects.h"
#include "engine/Engine.h"

namespace effect_bypass_render_tests {

using namespace spindle;

namespace {

constexpr int kRate = 48000, kBlock = 256;

struct Take {
  std::vector<float> left, right;
};

// Renders `blocks` blocks of key 60 held; before block b, `at(b, engine)` may post commands.
template <class At>
Take render(const engine::Program& program, int blocks, At at) {
  engine::Engine engine(engine::EngineConfig{kRate, kBlock, 64, engine::Quality::Hermite, 1});
  engine::Command set;
  set.type = engine::CommandType::SetProgram;
  set.program = &program;
  REQUIRE(engine.postCommand(set));
  Take take;
  std::vector<float> left(kBlock), right(kBlock);
  for (int b = 0; b < blocks; ++b) {
    at(b, engine);
    const MidiEvent on{0, midi::kNoteOn, 60, 127};
    engine.process(&on, b == 0 ? 1 : 0, left.data(), right.data(), kBlock);
    take.left.insert(take.left.end(), left.begin(), left.end());
    take.right.insert(take.right.end(), right.begin(), right.end());
  }
  engine.collectAllPrograms([](const engine::Program*) {});
  return take;
}

double levelDb(const Take& t, double from, double to) {
  test::Rendered r;
  r.left = t.left;
  r.right = t.right;
  return test::levelDb(r, static_cast<size_t>(from * kRate), static_cast<size_t>(to * kRate));
}

float largestStep(const std::vector<float>& x, double from, double to) {
  float step = 0.0f;
  for (auto i = static_cast<size_t>(from * kRate) + 1; i < static_cast<size_t>(to * kRate); ++i)
    step = std::max(step, std::fabs(x[i] - x[i - 1]));
  return step;
}

// The crossfades (5 ms = 240 frames after each toggle, at `on` and `off` seconds) move
// no frame further from the last than the bypassed signal moves by itself.
void checkNoClick(const Take& t, double on, double off) {
  for (const auto* channel : {&t.left, &t.right}) {
    const float own = largestStep(*channel, on + 0.02, off);
    INFO("largest step of the bypassed signal " << own);
    CHECK(largestStep(*channel, on - 0.01, on + 0.01) <= own);
    CHECK(largestStep(*channel, off - 0.01, off + 0.01) <= own);
  }
}

engine::Command bypass(int effect, bool on) {
  engine::Command c;
  c.type = engine::CommandType::SetPartEffectBypass;
  c.part = 0;
  c.count = effect;
  c.flag = on;
  return c;
}

}  // namespace

TEST_CASE("bypassing a part's -12 dB gain effect raises the level by 12 dB without a click; un-bypassing restores it",
          "[app][bus-effects][bypass]") {
  const auto dir = test::scratchDir("effect-bypass");
  test::writeNoise(dir / "noise.wav", kRate);
  session::Loader loader;
  const session::Loader::Result loaded = loader.loadString(
      "<region> sample=noise.wav amp_veltrack=0 loop_mode=no_loop\n"
      "<effect> type=gain gain=-12\n"
      "<effect> type=filter filter_type=lpf_2p filter_cutoff=2000 filter_resonance=0\n",
      dir / "bypass.sfz");
  REQUIRE(loaded.program);
  REQUIRE(loaded.program->busLayout.effects.size() == 2);
  // 2.5 s: bypass the gain at block 200 (1.07 s), play it again at block 350 (1.87 s).
  constexpr int kOn = 200, kOff = 350;
  const auto at = [](double block) { return block * kBlock / kRate; };
  const Take plain = render(*loaded.program, 470, [](int, engine::Engine&) {});
  const Take toggled = render(*loaded.program, 470, [&](int b, engine::Engine& e) {
    if (b == kOn) REQUIRE(e.postCommand(bypass(0, true)));
    if (b == kOff) REQUIRE(e.postCommand(bypass(0, false)));
  });
  const double before = levelDb(toggled, 0.5, at(kOn));
  const double bypassed = levelDb(toggled, at(kOn) + 0.01, at(kOff));
  const double after = levelDb(toggled, at(kOff) + 0.01, 2.4);
  const double plainMiddle = levelDb(plain, at(kOn) + 0.01, at(kOff));
  INFO("before " << before << " dB, bypassed " << bypassed << " dB (plain " << plainMiddle << " dB), after " << after
                 << " dB");
  CHECK(before > -40.0);
  CHECK(bypassed - plainMiddle == Approx(12.0).margin(0.2));
  CHECK(after - levelDb(plain, at(kOff) + 0.01, 2.4) == Approx(0.0).margin(0.01));
  CHECK(before - levelDb(plain, 0.5, at(kOn)) == Approx(0.0).margin(0.001));
  // The spectrum is the lowpass's in both states: the filter stayed in.
  const double centroidIn = test::spectralCentroid(toggled.left, toggled.right, kRate / 2, kOn * kBlock, kRate);
  const double centroidOut =
      test::spectralCentroid(toggled.left, toggled.right, kOn * kBlock + kRate / 100, kOff * kBlock, kRate);
  CHECK(centroidOut == Approx(centroidIn).epsilon(0.05));
  checkNoClick(toggled, at(kOn), at(kOff));
}

TEST_CASE("a bypass flag for an effect the program does not have changes nothing; a new program clears the flags",
          "[app][bus-effects][bypass]") {
  const auto dir = test::scratchDir("effect-bypass-index");
  test::writeNoise(dir / "noise.wav", kRate);
  session::Loader loader;
  const auto loaded = loader.loadString("<region> sample=noise.wav amp_veltrack=0\n<effect> type=gain gain=-12\n",
                                        dir / "one.sfz");
  REQUIRE(loaded.program);
  const Take plain = render(*loaded.program, 100, [](int, engine::Engine&) {});
  const Take other = render(*loaded.program, 100, [](int b, engine::Engine& e) {
    if (b == 10) REQUIRE(e.postCommand(bypass(5, true)));
    if (b == 11) REQUIRE(e.postCommand(bypass(kBypassableEffects, true)));
  });
  CHECK(levelDb(other, 0.0, 0.5) == Approx(levelDb(plain, 0.0, 0.5)).margin(1e-6));
  engine::Engine engine(engine::EngineConfig{kRate, kBlock, 64, engine::Quality::Hermite, 1});
  engine::Command set;
  set.type = engine::CommandType::SetProgram;
  set.program = loaded.program.get();
  REQUIRE(engine.postCommand(set));
  REQUIRE(engine.postCommand(bypass(0, true)));
  std::vector<float> left(kBlock), right(kBlock);
  engine.process(nullptr, 0, left.data(), right.data(), kBlock);
  CHECK(engine.stats().parts[0].effectBypass == 1);
  set.program = nullptr;
  REQUIRE(engine.postCommand(set));
  set.program = loaded.program.get();
  REQUIRE(engine.postCommand(set));
  engine.process(nullptr, 0, left.data(), right.data(), kBlock);
  CHECK(engine.stats().parts[0].effectBypass == 0);
  engine.collectAllPrograms([](const engine::Program*) {});
}

}  // namespace effect_bypass_render_tests
