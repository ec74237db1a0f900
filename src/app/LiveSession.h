#pragma once
// LiveSession: `spindle --headless`: the instrument, the engine, a backend and the
// midi threads, wired together and supervised from the main thread until a signal.
//
//   main thread:  load ─► connect backend ─► start ─► loop every 20 ms:
//                   SIGUSR1 → print stats      note log → file
//                   engine.collectGarbage()    backend lost → reconnect every 500 ms
//                 SIGINT/SIGTERM ─► stop midi threads, disconnect, print the summary
//
// Signal handlers only set flags; everything is printed from the main thread.
#include <ostream>
#include <string>
#include <vector>

namespace spindle::app {

// The whole `spindle` command: parses `args` (argv[1..]) and runs; returns the exit code.
int runLive(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace spindle::app
