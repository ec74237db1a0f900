// The shared reverb and chorus changed while they play: SetEffect commands reach the
// audio thread between blocks, inside an AudioThreadScope, and the engine takes them
// without allocating or locking. A larger room size set live lengthens the reverb's
// decay (T30 of the tail a noise burst leaves), and the chorus takes every setting
// (voices, depth up to 256 ms) on the lines it was built with.
#include <cmath>
#include <cstdint>
#include <vector>

#include "RtChecks.h"
#include "ScriptRun.h"
#include "catch.h"
#include "core/EffectParams.h"
#include "core/MidiEvent.h"

namespace shared_effect_safety_tests {

using namespace spindle;

namespace {

constexpr double kRate = 48000.0;
constexpr int kBlock = 256;
constexpr int kBurst = 960;  // 20 ms of noise

float noise(int64_t i) {
  auto state = static_cast<uint32_t>(i) * 2654435761u + 12345u;
  state ^= state >> 13;
  state *= 1274126177u;
  return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
}

// One region over every key: the burst, sent whole to the reverb or the chorus.
engine::Program makeProgram(const SampleData& sample, SendBus bus) {
  engine::Program program;
  program.samples.push_back(&sample);
  Region r;
  r.sampleIndex = 0;
  r.ampeg.release = 0.001f;
  r.sends[static_cast<size_t>(bus)].percent = 100.0f;
  program.regions.push_back(r);
  program.prepare();
  return program;
}

engine::Command effectCommand(EffectParam p, float value) {
  engine::Command c;
  c.type = engine::CommandType::SetEffect;
  c.count = static_cast<int32_t>(p);
  c.value = value;
  return c;
}

// Seconds from the backward-integrated decay's -5 dB point to its -35 dB point, times 2.
double t30(const std::vector<float>& x) {
  std::vector<double> edc(x.size() + 1, 0.0);
  for (size_t i = x.size(); i-- > 0;) edc[i] = edc[i + 1] + static_cast<double>(x[i]) * static_cast<double>(x[i]);
  const auto first = [&](double db) {
    size_t i = 0;
    while (i + 1 < edc.size() && 10.0 * std::log10(edc[i] / edc[0]) > db) ++i;
    return i;
  };
  return 2.0 * static_cast<double>(first(-35.0) - first(-5.0)) / kRate;
}

struct Live {
  explicit Live(const engine::Program& program) : engine(engine::EngineConfig{kRate, kBlock, 64, engine::Quality::Hermite, 1}) {
    engine::Command set;
    set.type = engine::CommandType::SetProgram;
    set.program = &program;
    REQUIRE(engine.postCommand(set));
    test::resetRtCounts();
  }
  // Renders `blocks` blocks (a note-on at the first when `note`), every process() call
  // inside an AudioThreadScope; returns left + right.
  std::vector<float> render(int blocks, bool note) {
    std::vector<float> out, left(kBlock), right(kBlock);
    for (int b = 0; b < blocks; ++b) {
      std::vector<MidiEvent> events;
      if (note && b == 0) events.push_back(test::event(0, midi::kNoteOn, 60, 127));
      {
        test::AudioThreadScope audio;
        engine.process(events.data(), static_cast<int>(events.size()), left.data(), right.data(), kBlock);
      }
      for (int i = 0; i < kBlock; ++i) out.push_back(left[static_cast<size_t>(i)] + right[static_cast<size_t>(i)]);
    }
    return out;
  }
  // The tail after the burst's own frames (and its release) have passed.
  double tailT30(int blocks) {
    std::vector<float> x = render(blocks, true);
    x.erase(x.begin(), x.begin() + kBurst + 480);
    return t30(x);
  }
  engine::Engine engine;
};

}  // namespace

TEST_CASE("Audio thread: a larger room size set live lengthens the reverb's T30, allocating nothing",
          "[rt][audio][effects]") {
  INFO(test::rtGuardMode());
  const test::RamSample burst(kBurst, kRate, noise);
  const engine::Program program = makeProgram(burst.data, SendBus::Reverb);
  Live live(program);
  const int blocks = static_cast<int>(7.0 * kRate) / kBlock;
  const double small = live.tailT30(blocks);
  REQUIRE(live.engine.postCommand(effectCommand(EffectParam::ReverbRoomSize, 0.8f)));
  const double large = live.tailT30(blocks);
  REQUIRE(live.engine.postCommand(effectCommand(EffectParam::ReverbRoomSize, 0.0f)));
  const double smallest = live.tailT30(blocks);
  INFO("T30 at room size 0.2: " << small << " s, 0.8: " << large << " s, 0: " << smallest << " s");
  // The reverb's own figures (engine/effects/Reverb.h): 0.96, about 3.8 and 0.68 s.
  CHECK(std::fabs(small - 0.96) <= 0.15 * 0.96);
  CHECK(large >= 3.0 * small);
  CHECK(std::fabs(large - 3.78) <= 0.25 * 3.78);
  CHECK(smallest < 0.8 * small);
  test::checkAudioThreadClean(test::rtCounts());
}

TEST_CASE("Audio thread: the reverb level set live scales the tail's energy by its square, allocating nothing",
          "[rt][audio][effects]") {
  INFO(test::rtGuardMode());
  const test::RamSample burst(kBurst, kRate, noise);
  const engine::Program program = makeProgram(burst.data, SendBus::Reverb);
  Live live(program);
  const int blocks = static_cast<int>(3.0 * kRate) / kBlock;
  const auto tailEnergy = [&] {
    const std::vector<float> x = live.render(blocks, true);
    double e = 0.0;
    for (size_t i = kBurst + 480; i < x.size(); ++i) e += static_cast<double>(x[i]) * static_cast<double>(x[i]);
    return e;
  };
  const double full = tailEnergy();
  REQUIRE(live.engine.postCommand(effectCommand(EffectParam::ReverbLevel, 0.3f)));
  const double low = tailEnergy();
  const double ratioDb = 10.0 * std::log10(low / full);
  INFO("tail energy at level 0.3 against 0.9: " << ratioDb << " dB");
  CHECK(std::fabs(ratioDb - 20.0 * std::log10(0.3 / 0.9)) <= 0.5);
  REQUIRE(live.engine.postCommand(effectCommand(EffectParam::ReverbOn, 0.0f)));
  CHECK(tailEnergy() == 0.0);  // off: nothing reaches the reverb, and its tail died before
  test::checkAudioThreadClean(test::rtCounts());
}

TEST_CASE("Audio thread: every chorus setting changed while it plays, allocating nothing", "[rt][audio][effects]") {
  INFO(test::rtGuardMode());
  const test::RamSample burst(kBurst, kRate, noise);
  const engine::Program program = makeProgram(burst.data, SendBus::Chorus);
  Live live(program);
  double before = 0.0;
  for (float v : live.render(20, true)) before += static_cast<double>(v) * static_cast<double>(v);
  const std::vector<std::pair<EffectParam, float>> changes{
      {EffectParam::ChorusVoices, 99.0f}, {EffectParam::ChorusDepth, 256.0f}, {EffectParam::ChorusSpeed, 5.0f},
      {EffectParam::ChorusLevel, 10.0f}, {EffectParam::ChorusVoices, 0.0f}, {EffectParam::ChorusVoices, 7.0f}};
  float peak = 0.0f;
  for (const auto& [param, value] : changes) {
    REQUIRE(live.engine.postCommand(effectCommand(param, value)));
    for (float v : live.render(20, true)) peak = std::max(peak, std::fabs(v));
  }
  CHECK(before > 0.0);
  CHECK(std::isfinite(peak));
  CHECK(peak > 0.0f);
  test::checkAudioThreadClean(test::rtCounts());
}

}  // namespace shared_effect_safety_tests
