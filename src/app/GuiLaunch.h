#pragma once
// What `spindle` hands its window, and how: the contract between the app and the GUI
// module (libspindle-gui.so). The app owns it: app/GuiModuleLoader.cpp parses the
// command line into a GuiLaunch, dlopen()s the module and calls its entry point;
// gui/module/GuiModule.cpp defines that entry point. This header is all the app knows
// of the window (the app never includes gui/), and all the module takes from the app's
// command line.
#include <optional>
#include <string>
#include <vector>

#include "control/HostControl.h"
#include "core/EffectParams.h"

namespace spindle::app {

struct GuiLaunch {
  std::string instrument;              // loaded into part 1 at start; empty: none
  // Each given one overrides the saved setting for this run.
  std::optional<std::string> backend, clientName, oscBind, oscSecretFile;
  std::optional<bool> oscInsecure, oscRequireSigned;  // given: on for this run
  std::optional<int> polyphony, quality, oscPort;
  std::string midiDevice;              // raw MIDI device node or named pipe
  bool alsaSeq = false;
  // What Spindle connects by itself, each given one over the saved setting for this run
  // (--no-connect, --no-connect-audio, --no-connect-midi); midiFrom (--midi-from): follow
  // only the MIDI sources whose name contains one of these.
  std::optional<bool> connectAudio, connectMidi;
  std::vector<std::string> midiFrom;
  EffectValues effects;  // the shared reverb and chorus (--reverb, --chorus-depth, ...)
  std::optional<float> tempo;  // --tempo: the set tempo, BPM
  int mpeLower = 0, mpeUpper = 0;  // --mpe: MPE zones' member channels (0: off)
  std::vector<control::HostSettings> hosts;  // --host: the remote Spindles the window drives
};

// The module's one exported symbol, kGuiEntryName, has this type: it runs the window
// until it closes (argc and argv go to QApplication) and returns the exit status.
using GuiEntry = int (*)(int* argc, char** argv, const GuiLaunch* launch);
inline constexpr const char* kGuiEntryName = "spindle_gui_main";

}  // namespace spindle::app
