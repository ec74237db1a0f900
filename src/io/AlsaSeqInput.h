#pragma once
// AlsaSeqInput: a second midi thread that reads the ALSA sequencer: it creates the
// sequencer port "<name>:midi_in", timestamps each event on the audio clock when
// poll() wakes, and pushes channel messages to the audio thread like MidiInputThread.
//
// ALSA is optional at build time (libasound2-dev: SPINDLE_HAVE_ALSA) and at run time:
// with no sequencer (no /dev/snd/seq, no snd-seq module) start() fails with a message
// and Spindle plays on without it.
//
// Threads: the owner (main thread) calls start()/stop(); the midi thread runs run().
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "io/LiveProcessor.h"

namespace spindle::io {

class AlsaSeqInput {
 public:
  AlsaSeqInput(LiveProcessor& live, int input) : live_(live), input_(input) {}
  ~AlsaSeqInput() { stop(); }
  AlsaSeqInput(const AlsaSeqInput&) = delete;
  AlsaSeqInput& operator=(const AlsaSeqInput&) = delete;

  static bool available() noexcept;  // compiled with ALSA
  bool start(const std::string& clientName, std::string& error);
  void stop();

 private:
  void run();
  void drain();

  LiveProcessor& live_;
  int input_;
  void* seq_ = nullptr;  // snd_seq_t*, opaque so the header needs no ALSA include
  std::thread thread_;
  std::atomic<bool> stopping_{false};
};

}  // namespace spindle::io
