// SFZ effect buses on the audio thread: 256 voices on 2 parts feeding the main bus and
// all four fx buses, every bus effect type running with its controls swept (the delay's
// times, the reverb's size and predelay among them; lofi, disto, comp, gate and limiter
// included, and a convolution with a 3 s stereo response), program changes every few blocks switching between two bus layouts (the
// buses crossfade), and the tails of the delay, phaser and reverb running on after the
// last voice; DecentSampler's chorus, phaser, wave folder and wave shaper with their
// controller curves and LFOs (DsBusEffects.h); the delay's right tap synced to the
// tempo, which MIDI clocks change in every block (with a stop and a start). No
// allocation, no free, no lock.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "DsBusEffects.h"
#include "RtChecks.h"
#include "ScriptRun.h"
#include "catch.h"
#include "core/MidiEvent.h"

namespace bus_effect_safety_tests {

using namespace spindle;

namespace {

constexpr int kBlocks = 60;

BusEffect effect(BusEffectType type, int bus, BusParam param, float value, int cc, float depth) {
  BusEffect e;
  e.type = type;
  e.bus = static_cast<uint8_t>(bus);
  e.values[static_cast<size_t>(param)] = value;
  e.controllers.push_back({param, static_cast<uint16_t>(cc), depth});
  return e;
}

// lofi (both stages), disto (4 stages), comp (with a bypass control), gate (with its
// manual control) and the limiter, on several buses, each with a swept control (CCs
// 27..31).
void addDynamics(BusLayout& layout, int variant) {
  BusEffect lofi = effect(BusEffectType::Lofi, variant ? 3 : 4, BusParam::Bitred, 40.0f, 27, 50.0f);
  lofi.controllers.push_back({BusParam::Decim, 28, 60.0f});
  layout.effects.push_back(lofi);
  BusEffect disto = effect(BusEffectType::Disto, 2, BusParam::DistoDepth, 60.0f, 29, 40.0f);
  disto.values[static_cast<size_t>(BusParam::DistoStages)] = 4.0f;
  disto.values[static_cast<size_t>(BusParam::DistoDry)] = 100.0f;
  disto.controllers.push_back({BusParam::DistoWet, 28, 100.0f});
  layout.effects.push_back(disto);
  BusEffect comp = effect(BusEffectType::Comp, 0, BusParam::CompThreshold, -30.0f, 30, 20.0f);
  comp.values[static_cast<size_t>(BusParam::CompRatio)] = 4.0f;
  comp.values[static_cast<size_t>(BusParam::CompLink)] = variant ? 1.0f : 0.0f;
  comp.controllers.push_back({BusParam::Bypass, 27, 1.0f});
  layout.effects.push_back(comp);
  BusEffect gate = effect(BusEffectType::Gate, variant ? 1 : 4, BusParam::GateThreshold, -50.0f, 31, 30.0f);
  gate.controllers.push_back({BusParam::GateManual, 31, 100.0f});
  layout.effects.push_back(gate);
  BusEffect limiter;
  limiter.type = BusEffectType::Limiter;
  layout.effects.push_back(limiter);
}

// A 3 s stereo response of decaying noise at 48 kHz, shared by both programs.
std::shared_ptr<const ImpulseResponse> response() {
  static const std::shared_ptr<const ImpulseResponse> made = [] {
    auto ir = std::make_shared<ImpulseResponse>();
    ir->sampleRate = 48000.0;
    uint32_t state = 1;
    for (int i = 0; i < 3 * 48000; ++i) {
      const float gain = std::exp(-static_cast<float>(i) / 20000.0f);
      state = state * 1664525u + 1013904223u;
      ir->left.push_back(gain * (static_cast<float>(state >> 8) / 8388608.0f - 1.0f));
      ir->right.push_back(-ir->left.back());
    }
    return ir;
  }();
  return made;
}

// The convolution on the main bus or fx bus 3, its mix swept (CC 34).
void addConvolution(BusLayout& layout, int variant) {
  BusEffect convolution = effect(BusEffectType::Convolution, variant ? 3 : 0, BusParam::ConvolutionMix, 0.3f, 34, 0.7f);
  convolution.impulse.frames = response();
  layout.effects.push_back(convolution);
}

// A delay with its left time and feedback swept, its right tap synced to the tempo.
BusEffect delayEffect(int variant) {
  BusEffect delay = effect(BusEffectType::Delay, variant ? 1 : 0, BusParam::DelayTimeL, 0.01f, 27, 0.02f);
  delay.values[static_cast<size_t>(BusParam::DelayTimeC)] = 0.007f;
  delay.values[static_cast<size_t>(BusParam::DelayLevelC)] = 50.0f;
  delay.values[static_cast<size_t>(BusParam::DelayFeedback)] = 60.0f;
  delay.values[static_cast<size_t>(BusParam::DelayDampHi)] = 30.0f;
  delay.values[static_cast<size_t>(BusParam::DelayDampLo)] = 30.0f;
  delay.values[static_cast<size_t>(BusParam::DelayCutoff)] = 3000.0f;
  delay.controllers.push_back({BusParam::DelayFeedback, 28, 30.0f});
  delay.values[static_cast<size_t>(BusParam::DelayBeatsR)] = 0.05f;  // at most 0.1 beat: 0.3 s of line at 20 BPM
  delay.controllers.push_back({BusParam::DelayBeatsR, 27, 0.05f});
  return delay;
}

// One looped region over every key sending to the four fx buses; `variant` changes
// the layout, so the two programs' buses differ.
engine::Program makeProgram(const SampleData& sample, int variant) {
  engine::Program program;
  program.samples.push_back(&sample);
  Region r;
  r.sampleIndex = 0;
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 100;
  r.loopEnd = sample.totalFrames - 100;
  r.volume = -30.0f;
  r.ampeg.release = 0.02f;
  r.effect1 = 40.0f;
  r.effect2 = 30.0f;
  r.effect3 = 20.0f;
  r.effect4 = 10.0f;
  program.regions.push_back(r);
  BusLayout& layout = program.busLayout;
  layout.toOutput = {variant ? 0.5f : 1.0f, 0.5f, 0.5f, 0.5f, 0.5f};
  layout.effects.push_back(effect(BusEffectType::Gain, 0, BusParam::Gain, -3.0f, 20, -12.0f));
  layout.effects.push_back(effect(BusEffectType::Eq, variant ? 2 : 1, BusParam::EqGain, 6.0f, 21, -12.0f));
  layout.effects.push_back(effect(BusEffectType::Filter, variant ? 1 : 2, BusParam::FilterCutoff, 800.0f, 22, 4000.0f));
  layout.effects.push_back(effect(BusEffectType::Rectify, 3, BusParam::Rectify, 50.0f, 23, 50.0f));
  layout.effects.push_back(effect(BusEffectType::Width, 4, BusParam::Width, 0.0f, 24, 100.0f));
  BusEffect apan = effect(BusEffectType::Apan, variant ? 0 : 3, BusParam::ApanDepth, 50.0f, 25, 50.0f);
  apan.values[static_cast<size_t>(BusParam::ApanFreq)] = 3.0f;
  apan.controllers.push_back({BusParam::ApanFreq, 26, 5.0f});
  apan.wave = static_cast<uint8_t>(variant ? 1 : 0);
  layout.effects.push_back(apan);
  layout.effects.push_back(delayEffect(variant));
  BusEffect phaser = effect(BusEffectType::Phaser, variant ? 0 : 2, BusParam::PhaserDepth, 50.0f, 29, 50.0f);
  phaser.values[static_cast<size_t>(BusParam::PhaserFeedback)] = 50.0f;
  phaser.controllers.push_back({BusParam::PhaserFreq, 30, 4.0f});
  layout.effects.push_back(phaser);
  BusEffect reverb = effect(BusEffectType::Reverb, variant ? 2 : 1, BusParam::ReverbSize, 30.0f, 31, 60.0f);
  reverb.values[static_cast<size_t>(BusParam::ReverbInput)] = 100.0f;
  reverb.values[static_cast<size_t>(BusParam::ReverbWet)] = 50.0f;
  reverb.values[static_cast<size_t>(BusParam::ReverbPredelay)] = 0.02f;
  reverb.controllers.push_back({BusParam::ReverbPredelay, 32, 0.05f});
  reverb.controllers.push_back({BusParam::ReverbDamp, 33, 80.0f});
  reverb.reverbType = static_cast<uint8_t>(variant ? 3 : 0);
  layout.effects.push_back(reverb);
  addDynamics(layout, variant);
  addConvolution(layout, variant);
  test::addDecentSamplerEffects(layout, variant);
  program.prepare();
  return program;
}

std::vector<std::vector<MidiEvent>> makeScript() {
  std::vector<std::vector<MidiEvent>> blocks;
  for (int b = 0; b < kBlocks; ++b) {
    std::vector<MidiEvent> e;
    for (int ch = 0; ch < 2; ++ch) {
      const auto channel = static_cast<uint8_t>(ch);
      if (b == 0)
        for (int key = 0; key < 128; ++key) e.push_back(test::event(1, static_cast<uint8_t>(midi::kNoteOn | channel), key, 100));
      for (int cc = 20; cc <= 34; ++cc)
        e.push_back(test::event(static_cast<uint32_t>(10 + cc), static_cast<uint8_t>(midi::kControlChange | channel), cc,
                                (b * 9 + cc * 7) % 128));
      if (b % 7 == 3 && b < 45) e.push_back(test::event(100, static_cast<uint8_t>(midi::kProgramChange | channel), (b / 7) % 2, 0));
      if (b == 45)
        for (int key = 0; key < 128; ++key) e.push_back(test::event(200, static_cast<uint8_t>(midi::kNoteOff | channel), key, 0));
    }
    // Two clocks a block, their spacing changing from block to block: a new tempo each time.
    e.push_back(test::event(2, midi::kClock, 0, 0));
    e.push_back(test::event(static_cast<uint32_t>(62 + (b % 6) * 25), midi::kClock, 0, 0));
    if (b == 30) e.push_back(test::event(250, midi::kStop, 0, 0));
    if (b == 31) e.push_back(test::event(0, midi::kStart, 0, 0));
    std::stable_sort(e.begin(), e.end(), [](const MidiEvent& x, const MidiEvent& y) { return x.frame < y.frame; });
    blocks.push_back(e);
  }
  return blocks;
}

}  // namespace

TEST_CASE("Audio thread: SFZ effect buses, every type with swept controls and crossfading program changes, "
          "allocate nothing",
          "[rt][audio][effects]") {
  INFO(test::rtGuardMode());
  const test::RamSample sample(48000, 48000.0, [](int64_t i) { return 0.5f * static_cast<float>(std::sin(0.05 * static_cast<double>(i))); });
  const engine::Program first = makeProgram(sample.data, 0), second = makeProgram(sample.data, 1);
  REQUIRE(first.buses);
  std::vector<engine::Command> commands;
  for (int slot = 0; slot < 2; ++slot) {
    engine::Command c;
    c.type = engine::CommandType::SetSlotProgram;
    c.count = slot;
    c.program = slot == 0 ? &first : &second;
    commands.push_back(c);
  }
  engine::Command part1;
  part1.type = engine::CommandType::SetProgram;
  part1.part = 1;
  part1.program = &first;
  commands.push_back(part1);
  engine::EngineConfig config{48000.0, 256, 256, engine::Quality::Hermite, 1};
  const test::ScriptRun run = test::runScript(first, makeScript(), config, commands);
  CHECK(run.end.notesStarted >= 256);
  CHECK(run.peak > 0.001f);
  CHECK(std::isfinite(run.peak));
  CHECK(run.end.activeVoices == 0);
  CHECK(run.end.effectsSounding);  // the tails still run after the last voice
  CHECK(run.end.tempoSource == engine::TempoSource::Clock);
  CHECK(run.end.tempo > 300.0f);  // clocks 60 to 185 frames and the rest of a block apart
  test::checkAudioThreadClean(run.counts);
}

TEST_CASE("Audio thread: the player's bypass of bus effects toggled every few blocks during a heavy render "
          "allocates nothing",
          "[rt][audio][effects]") {
  INFO(test::rtGuardMode());
  const test::RamSample sample(48000, 48000.0, [](int64_t i) { return 0.5f * static_cast<float>(std::sin(0.05 * static_cast<double>(i))); });
  const engine::Program program = makeProgram(sample.data, 0);
  REQUIRE(program.buses);
  const auto effects = static_cast<int>(program.busLayout.effects.size());
  int block = 0;
  const auto toggle = [&](engine::Engine& engine) {
    for (int part = 0; part < 2 && block % 3 == 1; ++part) {
      engine::Command c;
      c.type = engine::CommandType::SetPartEffectBypass;
      c.part = static_cast<int8_t>(part);
      c.count = (block / 3 + part) % effects;
      c.flag = (block / 3) % 2 == 0;
      REQUIRE(engine.postCommand(c));
    }
    ++block;
  };
  engine::Command part1;
  part1.type = engine::CommandType::SetProgram;
  part1.part = 1;
  part1.program = &program;
  engine::EngineConfig config{48000.0, 256, 256, engine::Quality::Hermite, 1};
  auto script = makeScript();
  for (auto& events : script)  // no program changes: the bypass flags stay with the program
    std::erase_if(events, [](const MidiEvent& e) { return (e.status & 0xF0) == midi::kProgramChange; });
  const test::ScriptRun run = test::runScript(program, script, config, {part1}, toggle);
  CHECK(run.end.notesStarted >= 256);
  CHECK(std::isfinite(run.peak));
  CHECK(run.peak > 0.001f);
  CHECK(run.end.parts[0].effectBypass != 0);
  test::checkAudioThreadClean(run.counts);
}

}  // namespace bus_effect_safety_tests
