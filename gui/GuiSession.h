#pragma once
// GuiSession: `spindle` without --headless. The same engine, backend, midi threads and
// OSC server as headless, with the main window on the gui thread, which owns the
// engine's command side (EngineLink) the way LiveSession's main thread does headless.
//
//   start: settings (XDG config) + command line ─► lock memory ─► connect the backend
//          (a dialog offers Retry while the server is down) ─► streaming, engine,
//          LiveProcessor ─► window, OSC server, midi threads ─► load --instrument
//          into part 1 ─► event loop
//   every 500 ms: the server went away? close the client, reconnect, play on;
//          SIGINT/SIGTERM? quit as if the window were closed
//   quit:  OSC and midi threads stop ─► backend disconnects (audio stops) ─► the
//          EngineLink takes every Program back ─► the rest goes in reverse
//
// Thread: the gui thread (the process's main thread).
#include <optional>
#include <string>

namespace spindle::gui {

struct GuiLaunch {
  std::string instrument;              // loaded into part 1 at start; empty: none
  // Each given one overrides the saved setting for this run.
  std::optional<std::string> backend, clientName, oscBind;
  std::optional<int> polyphony, quality, oscPort;
  std::string midiDevice;              // raw MIDI device node or named pipe
  bool alsaSeq = false;
};

// Runs the GUI until its window closes; returns the exit code.
int runGui(int& argc, char** argv, const GuiLaunch& launch);

}  // namespace spindle::gui
