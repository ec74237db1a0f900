#pragma once
// ConnectionLog: the headless session's account of its connections (io/Connections.h):
// every link Spindle's ports gain or lose, as it happens (a keyboard plugged in); the
// hint ("no MIDI input connected") whenever it changes, once the first scans are done;
// and the "connections:" line of the stats and the summary.
//
// Thread: the main thread. The backend outlives it.
#include <ostream>
#include <string>

#include "io/AudioBackend.h"

namespace spindle::app {

class ConnectionLog {
 public:
  ConnectionLog(io::AudioBackend& backend, std::ostream& out) : backend_(backend), out_(out) {}

  // Prints what happened since the last call; `settled`: the hint too (from 1 s after start).
  void tick(bool settled);
  // "connections:       MIDI in: kb:capture; audio out: system:playback_1, ..." and a newline.
  std::string line() const;

 private:
  io::AudioBackend& backend_;
  std::ostream& out_;
  std::string hintLogged_ = "-";  // the hint last printed ("" when nothing is missing)
};

}  // namespace spindle::app
