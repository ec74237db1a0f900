#pragma once
// LiveSession: `spindle --headless`: the door that reads the command line and runs the
// one session owner (session/Session.h: the instrument, the server, the engine, OSC,
// the midi threads), supervised from the main thread until a signal.
//
//   main thread:  load ─► connect (waits for the server --backend names) ─► start ─►
//                 loop every 20 ms:
//                   SIGUSR1 → print stats      note log → file
//                   session.pump()             server lost → reconnect every 500 ms
//                 SIGINT/SIGTERM ─► the session stops, print the summary
//
// Signal handlers only set flags; everything is printed from the main thread.
#include <ostream>
#include <string>
#include <vector>

namespace spindle::app {

// The whole `spindle` command: parses `args` (argv[1..]) and runs; returns the exit code.
int runLive(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace spindle::app
