#pragma once
// Engine: renders the 16 parts' voices into a stereo block, sample-accurately.
//
// Threads:
//   - audio thread: process() only.
//   - one control thread (the owner: offline renderer, live wiring, OSC or GUI
//     through the app's command router): postCommand(), collectGarbage(), stats().
// The constructor allocates everything (voice pool, scratch buffers); after it
// nothing on the audio thread allocates, locks, waits, logs or touches a file.
#include <cstdint>
#include <memory>

#include "core/MidiEvent.h"
#include "core/Realtime.h"
#include "engine/Commands.h"
#include "engine/Program.h"

namespace spindle::engine {

enum class Quality : uint8_t { Linear = 0, Hermite = 1, Sinc = 2, SincHigh = 3 };

struct EngineConfig {
  double sampleRate = 48000.0;
  int maxBlockFrames = 256;
  int polyphony = 256;
  Quality quality = Quality::Hermite;
  uint32_t randomSeed = 1;  // lorand/hirand, offset_random: reproducible renders
};

class Engine {
 public:
  explicit Engine(const EngineConfig& config);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Audio thread. `events` sorted by frame, each frame < frames <= maxBlockFrames.
  // Writes (does not add to) outLeft/outRight.
  void process(const MidiEvent* events, int eventCount, float* outLeft, float* outRight,
               int frames) noexcept SPINDLE_REALTIME;

  // Control thread. False when the command FIFO is full (the caller retries later).
  [[nodiscard]] bool postCommand(const Command& command) noexcept;
  // Control thread: frees Programs the audio thread has let go of.
  void collectGarbage();

  EngineStats stats() const noexcept;  // any thread; a consistent-enough snapshot
  const EngineConfig& config() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace spindle::engine
