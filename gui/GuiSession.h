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
// Connections (io/Connections.h): the saved settings, or the command line for this run,
// become the backend's ConnectionPolicy before it starts (so its first scan obeys
// them), and again when the user changes them in the settings dialog.
//
// Thread: the gui thread (the process's main thread).
#include <memory>

#include "app/GuiLaunch.h"

class QSettings;

namespace spindle::gui {

class MainWindow;

// One session inside a running QApplication: start() connects (offering Retry while
// the server is down), starts the engine and shows the window; stop() shuts it down in
// order (the destructor does too). `launch` and `store` outlive it. runGui() runs one
// until the window closes; the live GUI test drives one against a real server.
class GuiSession {
 public:
  GuiSession(const app::GuiLaunch& launch, QSettings& store);
  ~GuiSession();
  GuiSession(const GuiSession&) = delete;
  GuiSession& operator=(const GuiSession&) = delete;

  [[nodiscard]] bool start();  // false: no server and the user gave up, or the backend did not start
  void stop();
  MainWindow& window();  // after start()

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Runs the GUI until its window closes; returns the exit code.
int runGui(int& argc, char** argv, const app::GuiLaunch& launch);

}  // namespace spindle::gui
