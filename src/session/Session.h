#pragma once
// Session: one running Spindle, whatever its front door (`spindle --headless`, the
// window): the sound server, the disk streams, the engine, the Control that OSC and the
// window drive (its Library of loaded instruments), the remote hosts, the OSC server and
// the midi threads. The doors only read their settings, print or show what happens, and
// call it in this order:
//
//   loadInstrument (optional: --instrument, before the server, so a bad file ends the
//   run at once) ─► connect (the server choice; the door says how to wait) ─► start
//   (streams, engine, LiveProcessor, Control, connection policy, the server's process
//   callback) ─► startHosts ─► startOsc ─► startMidi
//   while it plays, on the owner thread: pump() (or Control::pump() from a view),
//   superviseServer() ─► stop() (the destructor does too)
//
// Thread: the main thread, which owns the engine's command side (the gui thread when
// the window is shown). Destroyed in reverse: the server's client first, the Library last.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cluster/Hosts.h"
#include "control/OscServer.h"
#include "control/ProblemLog.h"
#include "core/Limits.h"
#include "engine/Engine.h"
#include "io/AlsaSeqInput.h"
#include "io/AudioBackend.h"
#include "io/LiveProcessor.h"
#include "io/MidiInputThread.h"
#include "session/Control.h"
#include "session/Library.h"
#include "stream/Streaming.h"

namespace spindle::control {
class NsmClient;
}

namespace spindle::session {

// The LiveProcessor's MIDI inputs: the raw device's thread, the ALSA sequencer's, and
// the control side's (OSC and the window's keyboard, through Control).
inline constexpr int kDeviceMidiInput = 0, kAlsaSeqMidiInput = 1, kControlMidiInput = 2;
static_assert(kControlMidiInput < io::kMidiInputs);

struct SessionOptions {
  std::string server;                // "jack", "pipewire"; empty: a running JACK, else a running PipeWire
  io::BackendOptions backend;        // the client's name, --multi-out
  int polyphony = limits::kDefaultPolyphony;
  int quality = 1;                   // engine::Quality
  EffectValues effects;              // the shared reverb and chorus
  std::optional<float> tempo;        // the set tempo, BPM
  int mpeLower = 0, mpeUpper = 0;    // MPE zones set by hand: member channels (0: off)
  std::string scale, keymap;         // every part's tuning files; both empty: 12-TET
  stream::StreamingOptions streaming;
  io::ConnectionPolicy connections;  // what Spindle connects by itself
  std::string midiDevice;            // a raw MIDI device or named pipe; empty: none
  bool alsaSeq = false;              // the ALSA sequencer's input
  std::string controlInputName = "osc";  // /spindle/connections' name for the control side's MIDI input
};

enum class ServerEvent { None, Lost, Reconnected };

class Session {
 public:
  explicit Session(SessionOptions options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // The instrument every part plays from the start, loaded now from `path` (a session
  // file saves `savedAs`); kept for start(). False when it built no program; `report`
  // is the door's to print, and the samples it left out are in problems() already.
  bool loadInstrument(const std::string& path, const std::string& savedAs, LoadReport& report);
  // The server choice (ServerChoice.h): tries until it answers or `retry(error)` gives up.
  bool connect(const std::function<bool(const std::string& error)>& retry);
  // False with `error` when a tuning file is bad or the server's process callback did not start.
  bool start(std::string& error);
  // The remote Spindles this one drives, signed with `secret` (empty: unsigned) under
  // `identity`. Every host that can be added is; false with one error line for each other.
  bool startHosts(const control::Bytes& secret, const std::string& identity,
                  const std::vector<control::HostSettings>& hosts, std::vector<std::string>& errors);
  // The OSC server on the Control (and NSM through it when given; it outlives the session).
  bool startOsc(control::OscServerOptions options, control::NsmClient* nsm, std::string& error);
  std::vector<std::string> startMidi();  // warnings: an input that did not open

  // The owner thread, while it plays: Control::pump() (the window's view calls that
  // itself), and the hosts a master routes to the server (a session may add hosts).
  void pump() { control_->pump(); }
  void routeHosts() { control_->routeHosts(hosts_.settings()); }
  // A lost server: the call that first sees it closes the dead client, silences every
  // voice (the note-offs sent meanwhile never arrive) and logs the problem (Lost); while
  // lost, a call with `reconnect` tries the server again (Reconnected when it is back).
  ServerEvent superviseServer(bool reconnect);
  bool serverLost() const noexcept { return lost_; }
  // OSC, the loads, the midi threads, the server's client, then every Program back.
  void stop();

  Control& control() { return *control_; }
  engine::Engine& engine() { return *engine_; }
  io::LiveProcessor& live() { return *live_; }
  io::AudioBackend& backend() { return *backend_; }
  stream::Streaming& streaming() { return *streaming_; }
  cluster::Hosts& hosts() { return hosts_; }
  control::OscServer* osc() { return osc_.get(); }  // null: not started
  control::ProblemLog& problems() { return problems_; }
  const SessionOptions& options() const { return options_; }
  bool midiDeviceOpen() const noexcept { return midiDeviceOpen_; }
  bool alsaSeqOpen() const noexcept { return alsaSeqOpen_; }

 private:
  void startEngine();
  bool applyTunings(std::string& error);
  std::vector<Connections::Input> inputs() const;

  SessionOptions options_;
  control::ProblemLog problems_;  // disk errors, samples a load left out, a lost server
  Library library_;               // its pools and Programs outlive the streams and the engine
  std::optional<Loader::Result> instrument_;  // loadInstrument()'s, until start()
  std::string instrumentPath_;
  cluster::Hosts hosts_;          // outlives the OSC server
  std::unique_ptr<stream::Streaming> streaming_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<io::LiveProcessor> live_;
  std::unique_ptr<Control> control_;
  std::unique_ptr<control::OscServer> osc_;
  std::unique_ptr<io::MidiInputThread> midiDevice_;
  std::unique_ptr<io::AlsaSeqInput> alsaSeq_;
  std::unique_ptr<io::AudioBackend> backend_;  // last: destroyed first (its threads call into live_)
  bool midiDeviceOpen_ = false, alsaSeqOpen_ = false;
  bool lost_ = false, stopped_ = false;
};

}  // namespace spindle::session
