// A full engine render with 256 sounding voices, inside an AudioThreadScope:
// no allocation, no free, no lock or wait call, on the audio thread's whole path
// (commands, note-ons, controllers, rendering in every quality, stealing, releases).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "RtGuard.h"
#include "RtChecks.h"
#include "catch.h"
#include "core/Limits.h"
#include "core/MidiEvent.h"
#include "core/Region.h"
#include "core/SampleData.h"
#include "engine/Engine.h"
#include "engine/parts/Program.h"

namespace audio_thread_safety_tests {

using namespace spindle;

namespace {
constexpr double kRate = 48000.0;
constexpr int kBlock = 256;
constexpr int kVoices = 256;
constexpr int kParts = 2;  // 2 MIDI channels x 128 keys = 256 notes

// A stereo sine in RAM, planar, with kGuardFrames zero frames before and after.
class SineSample {
 public:
  SineSample(double hz, int64_t frames) {
    const auto guard = static_cast<std::size_t>(limits::kGuardFrames);
    for (int c = 0; c < 2; ++c) {
      storage_[c].assign(static_cast<std::size_t>(frames) + 2 * guard, 0.0f);
      for (int64_t i = 0; i < frames; ++i) {
        const double phase = 2.0 * 3.14159265358979323846 * hz * static_cast<double>(i) / kRate + c * 0.5;
        storage_[c][guard + static_cast<std::size_t>(i)] = 0.5f * static_cast<float>(std::sin(phase));
      }
      data.frames[c] = storage_[c].data() + guard;
    }
    data.channels = 2;
    data.framesInRam = data.totalFrames = frames;
    data.sampleRate = kRate;
  }
  SampleData data;

 private:
  std::vector<float> storage_[2];
};

// One region over every key, with the parts of the voice that do the most work
// switched on: keytracked pitch, a resonant filter, LFOs, envelopes, a loop.
engine::Program makeProgram(const SampleData& sample) {
  engine::Program program;
  program.name = "rt-audio sines";
  program.samples.push_back(&sample);
  Region r;
  r.sampleIndex = 0;
  r.pitchKeytrack = 10.0f;  // 10 cents per key: every voice at its own ratio near 1
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 1000;
  r.loopEnd = sample.totalFrames - 1000;
  r.volume = -24.0f;
  r.filType = FilterType::Lpf2p;
  r.cutoff = 3000.0f;
  r.resonance = 6.0f;
  r.filKeytrack = 20.0f;
  r.ampeg.attack = 0.005f;
  r.ampeg.release = 0.05f;
  r.amplfo = {0.0f, 0.1f, 5.0f, 2.0f};
  r.pitchlfo = {0.0f, 0.0f, 4.0f, 15.0f};
  r.fillfo = {0.0f, 0.0f, 3.0f, 600.0f};
  program.regions.push_back(r);
  program.prepare();
  return program;
}

MidiEvent event(uint32_t frame, uint8_t status, int data1, int data2) {
  return MidiEvent{frame, status, static_cast<uint8_t>(data1), static_cast<uint8_t>(data2)};
}

// The blocks the audio thread will see, built before it runs (building allocates).
struct Script {
  std::vector<std::vector<MidiEvent>> blocks;
  int allNotesOnBlock = 0;  // after this block, all 256 notes sound
};

Script makeScript() {
  Script s;
  std::vector<MidiEvent> notes;
  for (int key = 0; key < 128; ++key)  // events sorted by frame, as process() wants them
    for (int part = 0; part < kParts; ++part)
      notes.push_back(event(static_cast<uint32_t>(key), static_cast<uint8_t>(midi::kNoteOn | part), key, 100));
  s.blocks.push_back(notes);  // 256 note-ons inside one block, spread over its frames
  s.allNotesOnBlock = 0;
  for (int i = 0; i < 30; ++i) s.blocks.emplace_back();
  // Controllers while everything sounds.
  std::vector<MidiEvent> controls;
  for (int part = 0; part < kParts; ++part) {
    const auto p = static_cast<uint8_t>(part);
    const auto at = static_cast<uint32_t>(part);
    controls.push_back(event(10 + at, static_cast<uint8_t>(midi::kControlChange | p), midi::kCcVolume, 90));
    controls.push_back(event(20 + at, static_cast<uint8_t>(midi::kControlChange | p), midi::kCcPan, 30));
    controls.push_back(event(30 + at, static_cast<uint8_t>(midi::kPitchBend | p), 0, 80));
    controls.push_back(event(40 + at, static_cast<uint8_t>(midi::kControlChange | p), midi::kCcSustain, 127));
  }
  std::sort(controls.begin(), controls.end(), [](const MidiEvent& a, const MidiEvent& b) { return a.frame < b.frame; });
  s.blocks.push_back(controls);
  for (int i = 0; i < 10; ++i) s.blocks.emplace_back();
  // More notes than voices: stealing; then pedal up, notes off, all sound off.
  std::vector<MidiEvent> steal;
  for (int key = 0; key < 64; ++key) steal.push_back(event(static_cast<uint32_t>(key * 2), midi::kNoteOn | 2, key, 90));
  s.blocks.push_back(steal);
  for (int i = 0; i < 10; ++i) s.blocks.emplace_back();
  std::vector<MidiEvent> offs;
  for (int part = 0; part < 3; ++part) {
    offs.push_back(event(0, static_cast<uint8_t>(midi::kControlChange | part), midi::kCcSustain, 0));
    for (int key = 0; key < 128; ++key) offs.push_back(event(1, static_cast<uint8_t>(midi::kNoteOff | part), key, 0));
  }
  s.blocks.push_back(offs);
  for (int i = 0; i < 15; ++i) s.blocks.emplace_back();
  s.blocks.push_back({event(0, midi::kControlChange, midi::kCcAllSoundOff, 0)});
  for (int i = 0; i < 5; ++i) s.blocks.emplace_back();
  return s;
}
}  // namespace

TEST_CASE("Audio thread: a 256-voice render allocates nothing and takes no lock", "[rt][audio]") {
  const auto quality = GENERATE(engine::Quality::Linear, engine::Quality::Hermite, engine::Quality::Sinc,
                                engine::Quality::SincHigh);
  INFO("quality " << static_cast<int>(quality) << "; " << test::rtGuardMode());

  const SineSample sample(220.0, static_cast<int64_t>(kRate * 2));
  const engine::Program program = makeProgram(sample.data);  // outlives the engine
  const Script script = makeScript();
  std::vector<float> left(kBlock), right(kBlock);
  float peak = 0.0f;
  engine::EngineStats afterNotes;

  engine::Engine engine(engine::EngineConfig{kRate, kBlock, kVoices, quality, 1});
  for (int part = 0; part < 3; ++part) {
    engine::Command c;
    c.type = engine::CommandType::SetProgram;
    c.part = static_cast<int8_t>(part);
    c.program = &program;
    REQUIRE(engine.postCommand(c));  // taken by the audio thread, inside the scope
  }

  test::resetRtCounts();
  for (std::size_t b = 0; b < script.blocks.size(); ++b) {
    const std::vector<MidiEvent>& events = script.blocks[b];
    {
      test::AudioThreadScope audio;
      engine.process(events.data(), static_cast<int>(events.size()), left.data(), right.data(), kBlock);
    }
    // Outside the scope: reading stats and output is the test's business, not audio's.
    if (b == static_cast<std::size_t>(script.allNotesOnBlock) + 20) afterNotes = engine.stats();
    if (b <= static_cast<std::size_t>(script.allNotesOnBlock) + 30)
      for (int i = 0; i < kBlock; ++i)
        peak = std::max({peak, std::fabs(left[static_cast<std::size_t>(i)]), std::fabs(right[static_cast<std::size_t>(i)])});
  }
  const test::RtCounts counts = test::rtCounts();
  const engine::EngineStats end = engine.stats();
  engine.collectAllPrograms([](const engine::Program*) {});  // the test owns `program`

  // The render did the work we claim it did: 256 sounding voices, stealing, audio out.
  CHECK(afterNotes.activeVoices == static_cast<uint32_t>(kVoices));
  CHECK(end.peakVoices >= static_cast<uint32_t>(kVoices));  // stolen voices fade out on top
  CHECK(end.notesStarted >= static_cast<uint64_t>(kVoices + 64));
  CHECK(end.voicesStolen >= 64);
  CHECK(end.sourceUnderruns == 0);
  CHECK(end.activeVoices == 0);
  CHECK(peak > 0.01f);
  CHECK(std::isfinite(peak));

  test::checkAudioThreadClean(counts);
}

namespace {

// The same region with controller modulation on every continuous stage: amplitude,
// volume, pan, width, pitch, cutoff, resonance, LFO depth and rate, EQ gain and
// frequency, a crossfade, and note-start release/offset slots.
engine::Program makeModulatedProgram(const SampleData& sample) {
  engine::Program program = makeProgram(sample);
  Region& r = program.regions[0];
  const auto add = [&r](int cc, ModTarget target, float depth, uint8_t curve = 0, float smoothMs = -1.0f) {
    r.ccModulations[r.ccModulationCount++] = CcModulation{static_cast<uint16_t>(cc), target, curve, depth, smoothMs, 0.0f};
  };
  add(1, ModTarget::Amplitude, 100.0f, 4, 20.0f);
  add(2, ModTarget::Pan, 100.0f, 1);
  add(3, ModTarget::Pitch, 200.0f, 1, 10.0f);
  add(4, ModTarget::Cutoff, 2400.0f, 0, 0.0f);
  add(5, ModTarget::Resonance, 6.0f);
  add(6, ModTarget::Volume, -6.0f);
  add(8, ModTarget::Width, -100.0f);
  add(9, ModTarget::AmplfoDepth, 3.0f);
  add(9, ModTarget::PitchlfoFreq, 4.0f);
  add(129, ModTarget::FillfoDepth, 600.0f);
  add(12, ModTarget::AmpegRelease, 0.2f);
  add(13, ModTarget::Offset, 100.0f);
  add(15, ModTarget::Eq1Gain, 12.0f);
  add(15, ModTarget::Eq2Freq, 2000.0f);
  r.eq[1].gain = -6.0f;
  r.ccCrossfades[r.ccCrossfadeCount++] = CcCrossfade{14, false, 0, 64};
  program.prepare();
  return program;
}

// Every block sweeps the modulating CCs of both parts at several frames.
std::vector<std::vector<MidiEvent>> makeSweep(int blocks) {
  std::vector<std::vector<MidiEvent>> out;
  std::vector<MidiEvent> notes;
  for (int key = 0; key < 128; ++key)
    for (int part = 0; part < kParts; ++part)
      notes.push_back(event(static_cast<uint32_t>(key), static_cast<uint8_t>(midi::kNoteOn | part), key, 100));
  out.push_back(notes);
  for (int b = 0; b < blocks; ++b) {
    std::vector<MidiEvent> ccs;
    for (uint32_t at = 3; at < kBlock; at += 50) {
      for (int part = 0; part < kParts; ++part) {
        const auto status = static_cast<uint8_t>(midi::kControlChange | part);
        for (const int number : {1, 2, 3, 4, 5, 6, 8, 9, 14, 15})
          ccs.push_back(event(at, status, number, static_cast<int>((b * 7 + static_cast<int>(at) + number * 13) % 128)));
      }
    }
    out.push_back(ccs);
  }
  std::vector<MidiEvent> offs;
  for (int part = 0; part < kParts; ++part)
    for (int key = 0; key < 128; ++key) offs.push_back(event(1, static_cast<uint8_t>(midi::kNoteOff | part), key, 0));
  out.push_back(offs);
  for (int b = 0; b < 60; ++b) out.emplace_back();
  return out;
}

}  // namespace

TEST_CASE("Audio thread: 256 voices with 14 CC modulations each, CCs swept every block, allocate nothing",
          "[rt][audio][mod]") {
  INFO(test::rtGuardMode());
  const SineSample sample(220.0, static_cast<int64_t>(kRate * 2));
  const engine::Program program = makeModulatedProgram(sample.data);
  const auto blocks = makeSweep(40);
  std::vector<float> left(kBlock), right(kBlock);
  float peak = 0.0f;

  engine::Engine engine(engine::EngineConfig{kRate, kBlock, kVoices, engine::Quality::Hermite, 1});
  for (int part = 0; part < kParts; ++part) {
    engine::Command c;
    c.type = engine::CommandType::SetProgram;
    c.part = static_cast<int8_t>(part);
    c.program = &program;
    REQUIRE(engine.postCommand(c));
  }
  test::resetRtCounts();
  uint32_t sounding = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    {
      test::AudioThreadScope audio;
      engine.process(blocks[b].data(), static_cast<int>(blocks[b].size()), left.data(), right.data(), kBlock);
    }
    if (b == 20) sounding = engine.stats().activeVoices;
    for (int i = 0; i < kBlock; ++i) peak = std::max(peak, std::fabs(left[static_cast<std::size_t>(i)]));
  }
  const test::RtCounts counts = test::rtCounts();
  const engine::EngineStats end = engine.stats();
  engine.collectAllPrograms([](const engine::Program*) {});

  CHECK(sounding == static_cast<uint32_t>(kVoices));
  CHECK(end.activeVoices == 0);
  CHECK(peak > 0.001f);
  CHECK(std::isfinite(peak));
  test::checkAudioThreadClean(counts);
}

}  // namespace audio_thread_safety_tests
