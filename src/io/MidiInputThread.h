#pragma once
// MidiInputThread: the midi thread for raw MIDI bytes: a device node
// (/dev/snd/midiC1D0) or a named pipe. It waits in poll(), timestamps each read on the
// audio clock the moment poll() returns, parses the bytes (MidiByteParser: running
// status, realtime, sysex) and pushes each channel message, and the tuning events of
// each MIDI Tuning Standard sysex (core/MidiTuning.h), to the audio thread through its
// LiveProcessor input FIFO. A full FIFO drops the event and counts it.
//
// Priority: SCHED_FIFO one step below the audio thread (docs/ARCHITECTURE.md), set as soon as the
// audio thread has run (and again when the backend reconnects with a new thread).
//
// Threads: the owner (main thread) calls start()/stop(); the midi thread runs run().
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "io/LiveProcessor.h"
#include "io/MidiByteParser.h"

namespace spindle::io {

// Keeps the calling (midi) thread one SCHED_FIFO step below the audio thread. Call it
// now and then from the midi thread; it acts only when the audio thread changed.
class MidiPriorityFollower {
 public:
  explicit MidiPriorityFollower(const LiveProcessor& live) : live_(live) {}
  void update();

 private:
  const LiveProcessor& live_;
  unsigned long audioThread_ = 0;
};

class MidiInputThread {
 public:
  MidiInputThread(LiveProcessor& live, int input) : live_(live), input_(input) {}
  ~MidiInputThread() { stop(); }
  MidiInputThread(const MidiInputThread&) = delete;
  MidiInputThread& operator=(const MidiInputThread&) = delete;

  // Opens `path` and starts the thread; false with `error` set when it cannot be opened.
  bool start(const std::string& path, std::string& error);
  void stop();
  uint64_t messages() const noexcept { return messages_.load(std::memory_order_relaxed); }

 private:
  void run();
  void readAvailable(int64_t nowNs);
  void push(uint64_t frame, const MidiEvent& event);
  void pushTuning(uint64_t frame);

  LiveProcessor& live_;
  int input_;
  int fd_ = -1;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> messages_{0};
  MidiByteParser parser_;
};

}  // namespace spindle::io
