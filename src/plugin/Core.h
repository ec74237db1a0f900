#pragma once
// Core: what a plugin of Spindle owns whatever its host's API (LV2, CLAP): an engine, a
// disk thread and the Library its Programs load into, exactly as the live sampler's
// session does. The adapters (src/lv2, src/clap) are its doors: they turn their host's
// calls into the few below.
//
//   adapter's process ──► beginChunk ─► addMidi (each event at its frame) ─► endChunk
//        (the host's block cut at the engine's block; a live chunk through
//         io::LiveProcessor and Engine::process, a waiting one, offline or freewheel,
//         through Engine::processWaiting, which waits for the disk)
//   adapter's control side ──► loadInstrument / postLevel / collect (controlMutex held)
//
// Threads:
//   - audio (beginChunk, addMidi, endChunk, health, partOutputs, underrunsFromHere):
//     no allocation, lock, wait, log or file I/O; endChunk<false> is the one that may
//     wait for the disk (an offline or freewheeling render, not real-time).
//   - the control side (the LV2 worker and state calls, the CLAP main thread): one at a
//     time, under controlMutex(); they post commands and free the Programs handed back.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/Controllers.h"
#include "core/Limits.h"
#include "core/Realtime.h"
#include "engine/Engine.h"
#include "io/LiveProcessor.h"
#include "plugin/ControlMap.h"
#include "session/Library.h"
#include "stream/Streaming.h"

namespace spindle::plugin {

inline constexpr float kMinLevelDb = -80.0f, kMaxLevelDb = 12.0f;  // part 0's level
inline constexpr int kDefaultBlockFrames = 1024;  // the engine's block when the host names none

// The health a plugin shows its host: voices sounding, stream underruns since the
// instrument loaded, the engine's share of the last note-on's latency (ms), the block
// cache's fill (% of its budget).
struct Health {
  float voices = 0.0f, underruns = 0.0f, latencyMs = 0.0f, cacheFill = 0.0f;
};

// Where the control side's messages go: the host's log (error or warning).
using LogSink = std::function<void(bool error, const std::string& text)>;

class Core {
 public:
  // `maxBlockFrames`: the host's longest block (0: unknown, kDefaultBlockFrames).
  Core(double sampleRate, int maxBlockFrames, LogSink log);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  double sampleRate() const noexcept { return sampleRate_; }
  int maxBlockFrames() const noexcept { return maxBlockFrames_; }

  // ---- audio thread ----
  void setFreewheeling(bool on) noexcept { live_.setFreewheeling(on); }
  // One chunk of at most maxBlockFrames(): its MIDI (offsets from the chunk's first
  // frame, sorted), then its end, which renders it into left/right (and the parts' own
  // outputs) and notes the latency of its note-ons.
  void beginChunk(uint32_t frames) noexcept SPINDLE_REALTIME;
  void addMidi(uint32_t offset, const uint8_t* bytes, std::size_t size) noexcept SPINDLE_REALTIME;
  // A note slot event (core/MidiEvent.h: midi::kNoteSlot; engine/parts/Expression.h).
  void addNoteSlot(uint32_t offset, int part, int slot, int key, midi::NoteSlotAction action, float value) noexcept
      SPINDLE_REALTIME {
    live_.addPortEngineEvent(offset, midi::noteSlotEvent(offset, part, slot, key, action, value));
  }
  // After endChunk: a voice of part's key sounds in note slot `slot` (-1: with no slot).
  bool noteSounding(int part, int key, int slot) const noexcept SPINDLE_REALTIME {
    return engine_.noteSounding(part, key, slot);
  }
  template <bool Live>
  void endChunk(float* left, float* right, const engine::PartOutputs* parts) noexcept SPINDLE_REALTIME_IF(Live);
  // A new instrument plays: its underruns count from here.
  void underrunsFromHere() noexcept SPINDLE_REALTIME;
  Health health() const noexcept SPINDLE_REALTIME;
  int polyphony() const noexcept { return engine_.config().polyphony; }
  int tailFrames() const noexcept SPINDLE_REALTIME { return engine_.stats().tailFrames; }
  // The part pairs connected to buffers of their own, from frame `done` of the host's
  // block; null when none is. A part whose buffer is also the main pair's or another
  // port's (a host may hand every unused output one scratch buffer, as Ardour does) plays
  // on the main pair only.
  const engine::PartOutputs* partOutputs(const engine::PartOutputs& ports, const float* left, const float* right,
                                         uint32_t done) noexcept SPINDLE_REALTIME;

  // ---- control side, controlMutex() held ----
  std::mutex& controlMutex() noexcept { return controlMutex_; }
  // Loads `path` and plays it on every part, as spindle-render and the live sampler do.
  // On failure every problem is logged and the parts keep what they play.
  bool loadInstrument(const std::string& path);
  void postLevel(float db);
  void collect();  // frees the Programs the engine handed back
  const std::string& loadedPath() const noexcept { return loadedPath_; }
  const ControlMap& loadedControls() const noexcept { return loadedControls_; }
  // What the library playing names its keys (label_key, keyswitches' sw_label).
  const std::vector<controllers::KeyLabel>& loadedKeyLabels() const noexcept { return loadedKeyLabels_; }
  void log(bool error, const std::string& text) const { log_(error, text); }

 private:
  void noteLatency() noexcept SPINDLE_REALTIME;
  static bool sharedBuffer(const engine::PartOutputs& ports, const float* buffer, const float* mainLeft,
                           const float* mainRight, std::size_t part, bool rightChannel) noexcept SPINDLE_REALTIME;

  LogSink log_;
  double sampleRate_;
  int maxBlockFrames_;
  stream::StreamingOptions streamingOptions_;
  session::Library library_;  // its pools and Programs outlive the disk thread and the engine
  stream::Streaming streaming_;
  engine::Engine engine_;
  io::LiveProcessor live_;

  // Audio thread state.
  uint64_t frameTime_ = 0;
  uint32_t chunkFrames_ = 0;
  uint64_t underrunsAtLoad_ = 0;
  float latencyMs_ = 0.0f;
  double cacheBudget_ = 0.0;
  engine::PartOutputs partOutputs_{};

  std::mutex controlMutex_;
  std::string loadedPath_;
  ControlMap loadedControls_{};
  std::vector<controllers::KeyLabel> loadedKeyLabels_;
};

// The instrument's labelled controls in its order, as a plugin's controls map them: the
// first kControlPorts with a MIDI CC (label_cc above 127 names no MIDI controller).
ControlMap controlMap(const engine::Program& program);

// ---------------------------------------------------------------------------------------

template <bool Live>
void Core::endChunk(float* left, float* right, const engine::PartOutputs* parts) noexcept SPINDLE_REALTIME_IF(Live) {
  if constexpr (Live) live_.endCycle(left, right, parts);
  else live_.endCycleWaiting(left, right, parts);
  noteLatency();
  frameTime_ += chunkFrames_;
}

}  // namespace spindle::plugin
