#pragma once
// The GUI, loaded on demand: `spindle` without --headless dlopen()s libspindle-gui.so
// (gui/module/GuiModule.cpp) and hands it the parsed command line through the contract
// in app/GuiLaunch.h, all the app knows of the window. So `spindle --headless` links no
// Qt and needs none at run time; the window needs the module.
//
// Where the module is looked for, first found wins:
//   $SPINDLE_GUI_MODULE                                  (tests, unusual installs)
//   <directory of the executable>/../lib/spindle/libspindle-gui.so   (installed)
//   the build tree's module, when this executable was built with the GUI
#include <ostream>
#include <string>
#include <vector>

namespace spindle::app {

// True when the arguments ask for the window: no --headless, --help or --version, and
// not started by NSM (which implies --headless).
bool wantsGui(const std::vector<std::string>& args);

// Parses the arguments, loads the module and runs the GUI until its window closes.
// Exit status 2 with a message when the arguments are wrong or the module is missing.
int runGuiModule(int argc, char** argv, std::ostream& err);

}  // namespace spindle::app
