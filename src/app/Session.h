#pragma once
// Session: one run of `spindle` (LiveSession.h), its threads and what the main thread
// keeps of them. Private to src/app.
//
//   LiveSession.cpp   runLive; the start: load, NSM, engine, control, MIDI; the loop
//   SessionWatch.cpp  what the loop watches: a lost server, the real-time check, the note
//                     log, problems; the stats and the summary at the end
//
// Thread: the main thread.
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "app/ConnectionLog.h"
#include "app/LiveArgs.h"
#include "app/LiveControl.h"
#include "app/Loader.h"
#include "cluster/Hosts.h"
#include "control/NsmClient.h"
#include "control/OscServer.h"
#include "control/ProblemLog.h"
#include "engine/Engine.h"
#include "io/AlsaSeqInput.h"
#include "io/AudioBackend.h"
#include "io/LiveProcessor.h"
#include "io/MidiInputThread.h"
#include "stream/Streaming.h"

namespace spindle::app {

class Session {
 public:
  Session(const LiveArgs& args, std::ostream& out, std::ostream& err)
      : args_(args),
        out_(out),
        err_(err),
        streamingOptions_(streamingOptionsFor(args)),
        loader_(stream::poolOptionsFor(streamingOptions_)) {}
  ~Session();
  int run();

 private:
  // LiveSession.cpp
  bool load();
  bool joinNsm();
  void startEngine();
  bool startControl();
  bool startHosts(const control::Bytes& secret);  // --host: the remote Spindles this one drives
  void startMidi();
  void tick();
  // SessionWatch.cpp
  void superviseBackend();
  void checkRealtime();
  void drainNoteLog();
  void collectProblems();
  void logProblems();
  std::string streamingStats();
  std::string oscStats();
  void finish();

  const LiveArgs& args_;
  std::ostream& out_;
  std::ostream& err_;
  // Destroyed in reverse: the engine before the streams, the streams before the pool.
  stream::StreamingOptions streamingOptions_;
  // Disk errors, samples a load left out, a lost server; read by the log (logProblems) and OSC.
  control::ProblemLog problems_;
  uint64_t problemsLogged_ = 0;  // serial of the newest problem printed to err_
  Loader loader_;
  std::unique_ptr<engine::Program> program_;
  // The remote Spindles (--host, a session's hosts): outlive the control thread.
  cluster::Hosts hosts_;
  // Programs loaded over OSC/NSM (their pools, too): outlive the streams and the engine.
  std::unique_ptr<LiveControl> control_;
  std::unique_ptr<stream::Streaming> streaming_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<io::LiveProcessor> live_;
  std::unique_ptr<io::MidiInputThread> midiDevice_;
  std::unique_ptr<io::AlsaSeqInput> alsaSeq_;
  std::unique_ptr<control::NsmClient> nsm_;
  std::unique_ptr<control::OscServer> osc_;  // the control thread; stopped in finish()/~Session
  // Last, so destroyed first: its threads call into live_ until it disconnects.
  std::unique_ptr<io::AudioBackend> backend_;
  std::ofstream noteLog_;
  std::string clientName_;
  io::ConnectionPolicy policy_;
  std::optional<ConnectionLog> connectionLog_;  // once the backend is chosen
  int ticksSinceLost_ = 0;
  int ticks_ = 0;
  int nonRealtimeChecks_ = 0;
};

}  // namespace spindle::app
