#pragma once
// LiveProcessor: the backend-independent half of a live audio callback. A backend
// (JACK, PipeWire) calls, on its audio thread, once per cycle:
//
//   beginCycle(frame time, frames, start time)   clock, xrun detection, timer start
//   addPortEvent(offset, bytes) ...              sample-accurate MIDI from its port
//   endCycle(left, right[, parts])               MIDI-thread events, Engine::process,
//                                                note-on latency, stats publish
//
// Per-part outputs (--multi-out): endCycle(left, right, &parts) renders each part with
// an output of its own there, and the main pair still carries the full mix.
//
// Freewheel (JACK's freewheel mode, setFreewheeling): nothing is real-time then. The
// backend ends such a cycle with endCycleWaiting(), which renders through
// Engine::processWaiting: the disk is waited for before each stretch of frames, so a
// streamed instrument renders bit-exact, with no underrun, however fast the cycles
// come. Which of the two a cycle ends with is the backend's choice at its start.
//
// Events from the midi thread carry a frame timestamp (AudioClock); they play one
// period after it, at a constant latency, so their jitter does not reach the audio:
//   offset in block = timestamp + period - block's first frame
// (negative: late, played at offset 0 and counted; past the block: held over).
//
// Threads: audio thread (beginCycle, addPortEvent, endCycle); the backend's other
// callbacks (count*/set*: any thread, atomics); midi threads (midiInput(i): one
// producer per input, clock()); the main thread (stats(), popNoteLatency()).
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/MidiEvent.h"
#include "core/Realtime.h"
#include "engine/Engine.h"
#include "io/AudioClock.h"
#include "io/LiveStats.h"
#include "io/ProcessTimer.h"
#include "io/Seqlock.h"
#include "rt/SpscFifo.h"

namespace spindle::io {

struct TimedMidi {
  uint64_t frame = 0;  // timestamp on the audio clock
  MidiEvent event;     // event.frame unused
};
inline constexpr int kMidiInputs = 3;  // the raw device/pipe reader, the ALSA sequencer, OSC (control thread)
static_assert(kActivityInputs == kMidiInputs + 1, "LiveStatsSnapshot::inputs: the port, then each midi input");
using MidiInputFifo = rt::SpscFifo<TimedMidi, 1024>;
using NoteLogFifo = rt::SpscFifo<NoteLatency, 4096>;

struct CycleStart {
  uint64_t frameTime = 0;  // backend clock of the cycle's first frame
  int frames = 0;
  int64_t startNs = 0;     // CLOCK_MONOTONIC at that frame
  double sampleRate = 0.0;
  double tempo = 0.0;      // host tempo in bpm (JACK transport BBT while rolling); 0 = none, keep the last
  // The backend's clock is another one from this cycle on (PipeWire: the node moved to
  // another driver when it was linked to a sink): its frames do not follow the last
  // cycle's, and the jump is no xrun.
  bool newClock = false;
};

class LiveProcessor {
 public:
  explicit LiveProcessor(engine::Engine& engine);

  // ---- audio thread ----
  void beginCycle(const CycleStart& cycle) noexcept SPINDLE_REALTIME;
  void addPortEvent(uint32_t offset, const uint8_t* bytes, std::size_t size) noexcept SPINDLE_REALTIME;
  // An event a plugin adapter built itself (a midi::kNoteSlot event), at `offset`.
  void addPortEngineEvent(uint32_t offset, const MidiEvent& event) noexcept SPINDLE_REALTIME;
  void endCycle(float* left, float* right, const engine::PartOutputs* parts = nullptr) noexcept SPINDLE_REALTIME;
  // ---- the freewheeling process thread (not real-time: it may wait for the disk) ----
  void endCycleWaiting(float* left, float* right, const engine::PartOutputs* parts = nullptr) noexcept;
  bool freewheeling() const noexcept SPINDLE_REALTIME { return freewheeling_.load(std::memory_order_relaxed); }

  // ---- backend callbacks, any thread ----
  void countBackendXrun() noexcept { backendXruns_.fetch_add(1, std::memory_order_relaxed); }
  void setPlaybackLatency(uint32_t frames) noexcept { playbackLatency_.store(frames, std::memory_order_relaxed); }
  // A NetJACK2 slave's round trip through this host (NetworkLatency.h); both in one
  // word so a reader never sees the frames of one value with the periods of another.
  void setNetworkLatency(uint32_t roundTripFrames, uint32_t slavePeriods) noexcept {
    network_.store(uint64_t{slavePeriods} << 32 | roundTripFrames, std::memory_order_relaxed);
  }
  void setFreewheeling(bool on) noexcept { freewheeling_.store(on, std::memory_order_relaxed); }
  void setConnected(bool on) noexcept { connected_.store(on, std::memory_order_relaxed); }
  void countReconnect() noexcept { reconnects_.fetch_add(1, std::memory_order_relaxed); }

  // ---- midi threads ----
  MidiInputFifo& midiInput(int input) noexcept { return midiInputs_[static_cast<std::size_t>(input)]; }
  const AudioClock& clock() const noexcept { return clock_; }
  void countMidiDropped(uint64_t n) noexcept { midiDropped_.fetch_add(n, std::memory_order_relaxed); }
  // The audio thread's pthread handle (0 before the first cycle).
  unsigned long audioThread() const noexcept { return audioThread_.load(std::memory_order_relaxed); }
  // Its SCHED_FIFO priority as the kernel sees it (0: not real-time, or no cycle yet).
  // Not threadPriority(audioThread()): glibc's cached policy is stale for a thread the
  // server's library raised by kernel id (pw-jack), see RealtimeSetup.h.
  int audioThreadPriority() const noexcept;

  // ---- main thread ----
  LiveStatsSnapshot stats() const noexcept;
  [[nodiscard]] bool popNoteLatency(NoteLatency& out) noexcept { return noteLog_.tryPop(out); }

 private:
  struct Pending {          // one event of the block being built
    uint64_t timestamp = 0; // the event's own timestamp (backend frames)
    MidiEvent event;        // event.frame = offset in the block
    EventSource source = EventSource::Port;
  };
  bool append(const Pending& p) noexcept SPINDLE_REALTIME;
  // A port's sysex: the tuning events of an MTS message, at its offset.
  void addPortClock(uint32_t offset, uint8_t status) noexcept SPINDLE_REALTIME;
  void addPortTuning(uint32_t offset, const uint8_t* bytes, std::size_t size) noexcept SPINDLE_REALTIME;
  void takeThreadEvents() noexcept SPINDLE_REALTIME;
  void sortBlock() noexcept SPINDLE_REALTIME;
  void collectNoteStarts() noexcept SPINDLE_REALTIME;
  void publish() noexcept SPINDLE_REALTIME;
  template <bool Live>
  void finishCycle(float* left, float* right, const engine::PartOutputs* parts) noexcept SPINDLE_REALTIME_IF(Live);
  void addPartsToMain(float* left, float* right, const engine::PartOutputs& parts) noexcept SPINDLE_REALTIME;

  engine::Engine& engine_;
  rt::StreamBank* streams_;  // the engine's disk streams (null: none); audio thread reads slotsInUse()
  AudioClock clock_;
  std::array<MidiInputFifo, kMidiInputs> midiInputs_;
  NoteLogFifo noteLog_;
  Seqlock<LiveStatsSnapshot> snapshot_;

  // Audio thread state.
  CycleStart cycle_;
  uint64_t expectedFrame_ = 0;
  uint64_t backendXrunsSeen_ = 0;
  bool haveExpected_ = false;
  bool afterXrun_ = false;  // this cycle followed a frame gap or a reported xrun
  std::vector<Pending> pending_;
  std::vector<MidiEvent> blockEvents_;
  int pendingCount_ = 0;
  TimedMidi held_[kMidiInputs];
  bool holding_[kMidiInputs] = {};
  ProcessTimer timer_;
  LiveStatsSnapshot local_;

  // Raised by other threads, read into stats().
  std::atomic<uint64_t> backendXruns_{0}, midiDropped_{0};
  std::atomic<uint32_t> playbackLatency_{0}, reconnects_{0};
  std::atomic<uint64_t> network_{0};  // slave periods << 32 | round-trip frames
  std::atomic<bool> freewheeling_{false}, connected_{false};
  std::atomic<unsigned long> audioThread_{0};
  std::atomic<int> audioTid_{0};  // its kernel thread id
};

}  // namespace spindle::io
