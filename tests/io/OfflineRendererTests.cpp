// OfflineRenderer driving the real Engine with a hand-built Program.
#include <algorithm>
#include <cmath>
#include <memory>

#include "catch.h"
#include "core/Limits.h"
#include "engine/Engine.h"
#include "io/OfflineRenderer.h"
#include "SmfBuilder.h"

namespace offline_renderer_tests {

using spindle::engine::Engine;
using spindle::engine::EngineConfig;
using spindle::io::OfflineRenderer;
using spindle::io::RenderOptions;
using spindle::io::RenderStats;
using spindle::io::TimedMidiEvent;

namespace {

constexpr double kRate = 48000.0;

// A mono sample of constant value at kRate, guards included, and a Program that
// plays it on every key at its own pitch.
struct ConstantInstrument {
  std::vector<float> storage;
  spindle::SampleData data;
  spindle::engine::Program program;

  ConstantInstrument(const ConstantInstrument&) = delete;  // data and program point into storage
  explicit ConstantInstrument(int64_t frames, bool loop = false) : storage(static_cast<std::size_t>(frames + 2 * spindle::limits::kGuardFrames)) {
    std::fill(storage.begin() + spindle::limits::kGuardFrames, storage.end() - spindle::limits::kGuardFrames, 0.5f);
    data.frames[0] = data.frames[1] = storage.data() + spindle::limits::kGuardFrames;
    data.framesInRam = data.totalFrames = frames;
    data.channels = 1;
    data.sampleRate = kRate;
    spindle::Region region;
    region.sampleIndex = 0;
    if (loop) {
      region.loopMode = spindle::LoopMode::LoopContinuous;
      region.loopModeSet = true;
      region.loopStart = 0;
      region.loopEnd = frames - 1;
    }
    program.name = "constant";
    program.regions = {region};
    program.samples = {&data};
    program.prepare();
  }
};

struct Rendered {
  std::vector<float> left;
  RenderStats stats;
};

Rendered render(const spindle::engine::Program& program, const std::vector<TimedMidiEvent>& events, int block) {
  EngineConfig config;
  config.sampleRate = kRate;
  config.maxBlockFrames = block;
  Engine engine(config);
  spindle::engine::Command setProgram;
  setProgram.type = spindle::engine::CommandType::SetProgram;
  setProgram.program = &program;
  REQUIRE(engine.postCommand(setProgram));
  Rendered out;
  OfflineRenderer renderer(engine, RenderOptions{block, 0.0, 1.0});
  out.stats = renderer.render(events, [&](const float* l, const float*, int frames) {
    out.left.insert(out.left.end(), l, l + frames);
    return true;
  });
  engine.collectAllPrograms([](const spindle::engine::Program*) {});
  return out;
}

int64_t firstSounding(const std::vector<float>& frames) {
  const auto it = std::find_if(frames.begin(), frames.end(), [](float v) { return std::abs(v) > 1e-6f; });
  return it == frames.end() ? -1 : it - frames.begin();
}

}  // namespace

TEST_CASE("a note starts on its exact frame whatever the block size") {
  ConstantInstrument instrument(4800);
  const std::vector<TimedMidiEvent> events{{485.0 / kRate, 0x90, 60, 127}, {0.05, 0x80, 60, 0}};
  const Rendered reference = render(instrument.program, events, 256);
  CHECK(firstSounding(reference.left) == 485);
  CHECK(reference.stats.notesStarted == 1);
  CHECK(reference.stats.peakVoices == 1);
  CHECK_FALSE(reference.stats.tailCapped);
  // The tail ends once the voice has released, well before the 1 s cap.
  CHECK(reference.stats.frames < static_cast<int64_t>(0.2 * kRate));
  for (int block : {1, 7, 64, 1000}) {
    INFO("block " << block);
    const Rendered other = render(instrument.program, events, block);
    CHECK(firstSounding(other.left) == 485);
    const std::size_t common = std::min(other.left.size(), reference.left.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < common; ++i)
      worst = std::max(worst, static_cast<double>(std::abs(other.left[i] - reference.left[i])));
    CHECK(worst < 1e-4);
  }
}

TEST_CASE("more events at one frame than a block takes: later events keep their frames") {
  ConstantInstrument instrument(4800);
  std::vector<TimedMidiEvent> events(5000, TimedMidiEvent{10.0 / kRate, 0xB0, 7, 127});
  events.push_back({100.0 / kRate, 0x90, 60, 127});
  events.push_back({0.01, 0x80, 60, 0});
  const Rendered out = render(instrument.program, events, 256);
  CHECK(firstSounding(out.left) == 100);
  CHECK(out.stats.lastEventFrame == 480);
  CHECK(out.stats.notesStarted == 1);
}

TEST_CASE("a voice that never ends is cut at the tail cap") {
  const ConstantInstrument instrument(4800, true);
  const Rendered out = render(instrument.program, {{0.0, 0x90, 60, 127}}, 256);  // no note-off
  CHECK(out.stats.tailCapped);
  CHECK(out.stats.peakVoices == 1);
  CHECK(out.stats.frames >= static_cast<int64_t>(kRate));          // 1 s cap after the last event
  CHECK(out.stats.frames < static_cast<int64_t>(kRate) + 256 + 1);  // ... and not a block more
}

TEST_CASE("lobpm/hibpm follow the MIDI file's tempo, changed at the tempo event's frame") {
  // 480 ticks per quarter. Tempo 90 bpm at tick 0, a note at tick 480 (0.6667 s);
  // tempo 150 at tick 960 (1.3333 s), a note at the same tick, after the tempo event.
  spindle::test::TrackBuilder track;
  track.tempo(0, 666667).event(480, {0x90, 60, 100}).event(10, {0x80, 60, 0});
  track.tempo(470, 400000).event(0, {0x90, 60, 100}).event(10, {0x80, 60, 0}).end(480);
  const auto bytes = spindle::test::buildSmf(0, 480, {track});
  const spindle::io::MidiSong song = spindle::io::parseMidiFile(bytes.data(), bytes.size(), "tempo.mid");
  REQUIRE(song.tempos.size() == 2);
  CHECK(song.tempos[0].bpm == Approx(90.0).epsilon(1e-5));
  CHECK(song.tempos[1].seconds == Approx(2 * 0.666667).epsilon(1e-5));
  CHECK(song.tempos[1].bpm == Approx(150.0));

  ConstantInstrument slow(4800), fast(4800);
  slow.program.regions[0].hibpm = 120.0f;  // plays below 120 bpm only
  slow.program.prepare();
  fast.program.regions[0].lobpm = 120.0f;
  fast.program.prepare();
  // A block size that does not divide the tempo change's frame (64000): it cuts a block.
  for (const auto* inst : {&slow, &fast}) {
    EngineConfig config;
    config.sampleRate = kRate;
    config.maxBlockFrames = 300;
    Engine engine(config);
    spindle::engine::Command setProgram;
    setProgram.type = spindle::engine::CommandType::SetProgram;
    setProgram.program = &inst->program;
    REQUIRE(engine.postCommand(setProgram));
    std::vector<float> left;
    OfflineRenderer renderer(engine, RenderOptions{300, song.lengthSeconds, 1.0, {}, song.tempos});
    renderer.render(song.events, [&](const float* l, const float*, int frames) {
      left.insert(left.end(), l, l + frames);
      return true;
    });
    engine.collectAllPrograms([](const spindle::engine::Program*) {});
    REQUIRE(left.size() > 70000);
    const bool first = std::abs(left[32000 + 100]) > 0.0f;   // note at 0.6667 s = frame 32000
    const bool second = std::abs(left[64000 + 100]) > 0.0f;  // note at 1.3333 s = frame 64000
    CHECK(first == (inst == &slow));
    CHECK(second == (inst == &fast));
  }
}

}  // namespace offline_renderer_tests
