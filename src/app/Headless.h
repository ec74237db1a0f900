#pragma once
// Headless: one run of `spindle --headless` (LiveSession.h): the door that reads the
// command line, drives the one session owner (session/Session.h) and says on the log
// what happens. Private to src/app.
//
//   LiveSession.cpp   runLive; the start: NSM, the instrument, the server, OSC, MIDI; the loop
//   SessionWatch.cpp  what the loop watches: a lost server, the real-time check, the note
//                     log, problems; the stats and the summary at the end
//
// Thread: the main thread, the engine's owner: it pumps the session every tick.
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "app/ConnectionLog.h"
#include "app/LiveArgs.h"
#include "control/NsmClient.h"
#include "control/OscServer.h"
#include "library/LibraryIndex.h"
#include "session/Session.h"

namespace spindle::app {

class Headless {
 public:
  Headless(const LiveArgs& args, std::ostream& out, std::ostream& err) : args_(args), out_(out), err_(err) {}
  int run();

 private:
  // LiveSession.cpp
  session::SessionOptions sessionOptions() const;
  bool joinNsm();
  bool load();
  std::optional<int> start();
  bool startControl(control::OscServerOptions oscOptions);
  bool startHosts(const control::Bytes& secret);  // --host: the remote Spindles this one drives
  void tick();
  // SessionWatch.cpp
  void superviseBackend();
  void checkRealtime();
  void drainNoteLog();
  void logProblems();
  std::string streamingStats();
  std::string oscStats();
  void finish();

  const LiveArgs& args_;
  std::ostream& out_;
  std::ostream& err_;
  std::string clientName_;
  std::unique_ptr<control::NsmClient> nsm_;      // outlives the session's OSC server
  // The installed instruments (OSC's /spindle/library/...), scanned on its own thread from
  // the start; outlives the session's OSC server.
  std::unique_ptr<library::Index> library_;
  std::unique_ptr<session::Session> session_;
  uint64_t problemsLogged_ = 0;  // serial of the newest problem printed to err_
  std::ofstream noteLog_;
  std::optional<ConnectionLog> connectionLog_;  // once the server is chosen
  int ticksSinceLost_ = 0;
  int ticks_ = 0;
  int nonRealtimeChecks_ = 0;
};

}  // namespace spindle::app
