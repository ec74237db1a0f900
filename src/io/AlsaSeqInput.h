#pragma once
// AlsaSeqInput: a second midi thread that reads the ALSA sequencer: it creates the
// sequencer port "<name>:midi_in", timestamps each event on the audio clock when
// poll() wakes, and pushes channel messages to the audio thread like MidiInputThread.
//
// ALSA is optional at build time (libasound2-dev: SPINDLE_HAVE_ALSA) and at run time:
// with no sequencer (no /dev/snd/seq, no snd-seq module) start() fails with a message
// and Spindle plays on without it.
//
// Hardware following (io/Connections.h's rule for the sequencer): at start every
// hardware client's readable port (a USB keyboard's, not Midi Through's or another
// program's) is subscribed to Spindle's port, and so is every one that appears later
// (the System:Announce port tells of it).
//
// Threads: the owner (main thread) calls start()/stop(); the midi thread runs run().
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "io/LiveProcessor.h"

namespace spindle::io {

// One sequencer port as the hardware rule sees it.
struct AlsaPortInfo {
  int client = 0;
  bool hardware = false;    // SND_SEQ_PORT_TYPE_HARDWARE: a device's port
  bool readable = false;    // SND_SEQ_PORT_CAP_READ and SUBS_READ: it can send to us
  bool exported = true;     // not SND_SEQ_PORT_CAP_NO_EXPORT
  std::string name;         // "client name:port name"
};
// Whether Spindle follows `port` (never the System client 0, never its own client);
// `midiFrom` as in ConnectionPolicy: empty, or texts one of which the name contains.
bool followsAlsaPort(const AlsaPortInfo& port, int ownClient, const std::vector<std::string>& midiFrom);

class AlsaSeqInput {
 public:
  AlsaSeqInput(LiveProcessor& live, int input) : live_(live), input_(input) {}
  ~AlsaSeqInput() { stop(); }
  AlsaSeqInput(const AlsaSeqInput&) = delete;
  AlsaSeqInput& operator=(const AlsaSeqInput&) = delete;

  static bool available() noexcept;  // compiled with ALSA
  // Before start(): follow hardware sources (on by default), only those named.
  void setFollow(bool follow, std::vector<std::string> midiFrom) {
    follow_ = follow;
    midiFrom_ = std::move(midiFrom);
  }
  bool start(const std::string& clientName, std::string& error);
  void stop();

 private:
  void run();
  void drain();
  void followHardware();          // start: every hardware port present
  void portStarted(int client, int port);

  LiveProcessor& live_;
  int input_;
  void* seq_ = nullptr;  // snd_seq_t*, opaque so the header needs no ALSA include
  int port_ = -1;
  bool follow_ = true;
  std::vector<std::string> midiFrom_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
};

}  // namespace spindle::io
