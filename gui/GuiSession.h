#pragma once
// GuiSession: `spindle` without --headless: the window's door onto the same session
// owner the headless run drives (session/Session.h): the same server choice, engine,
// loads, OSC server and midi threads, with the main window on the gui thread, which
// owns the engine's command side (its EngineLink pumps the session) the way the main
// thread does headless.
//
//   start: settings (XDG config) + command line ─► lock memory ─► connect (a dialog
//          offers Retry while the server is down) ─► the session starts ─► window,
//          hosts, OSC server, midi threads ─► load --instrument into part 1 ─► event loop
//   every 500 ms: the server went away? the session closes the client, reconnects,
//          plays on; SIGINT/SIGTERM? quit as if the window were closed
//   quit:  the session stops (OSC, loads, midi threads, the server's client; every
//          Program back) ─► the window goes ─► the rest in reverse
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
