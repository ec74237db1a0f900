#pragma once
// Runs a block script through a real Engine with `program` set, each process() call
// inside an AudioThreadScope, and returns what the audio thread did: its allocation
// and lock counts, the engine's end stats and the left channel's peak. `inScope` runs
// inside the scope before each block (an audio-thread call under test, or nothing).
// event(): a script's MIDI event; RamSample: a generated sample the program plays.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "RtGuard.h"
#include "catch.h"
#include "core/Limits.h"
#include "core/SampleData.h"
#include "core/MidiEvent.h"
#include "engine/Engine.h"
#include "engine/parts/Program.h"

namespace spindle::test {

inline MidiEvent event(uint32_t frame, uint8_t status, int data1, int data2) {
  return MidiEvent{frame, status, static_cast<uint8_t>(data1), static_cast<uint8_t>(data2)};
}

// A mono sample in RAM, with the engine's guard frames either side; frame i is wave(i).
struct RamSample {
  template <class Wave>
  RamSample(int64_t frames, double rate, Wave wave)
      : storage(static_cast<std::size_t>(frames + 2 * limits::kGuardFrames), 0.0f) {
    for (int64_t i = 0; i < frames; ++i) storage[static_cast<std::size_t>(i + limits::kGuardFrames)] = wave(i);
    data.frames[0] = data.frames[1] = storage.data() + limits::kGuardFrames;
    data.channels = 1;
    data.framesInRam = data.totalFrames = frames;
    data.sampleRate = rate;
  }
  std::vector<float> storage;
  SampleData data;
};

struct ScriptRun {
  RtCounts counts;
  engine::EngineStats end;
  float peak = 0.0f;
};

inline ScriptRun runScript(const engine::Program& program, const std::vector<std::vector<MidiEvent>>& script,
                           engine::EngineConfig config, const std::vector<engine::Command>& commands = {},
                           const std::function<void(engine::Engine&)>& inScope = {}) {
  std::vector<float> left(static_cast<size_t>(config.maxBlockFrames)), right(left.size());
  engine::Engine engine(config);
  engine::Command set;
  set.type = engine::CommandType::SetProgram;
  set.program = &program;
  REQUIRE(engine.postCommand(set));
  for (const engine::Command& c : commands) REQUIRE(engine.postCommand(c));
  resetRtCounts();
  ScriptRun run;
  for (const auto& events : script) {
    {
      AudioThreadScope audio;
      if (inScope) inScope(engine);
      engine.process(events.data(), static_cast<int>(events.size()), left.data(), right.data(),
                     config.maxBlockFrames);
    }
    for (float v : left) run.peak = std::max(run.peak, std::fabs(v));
  }
  run.counts = rtCounts();
  run.end = engine.stats();
  engine.collectAllPrograms([](const engine::Program*) {});
  return run;
}

}  // namespace spindle::test
