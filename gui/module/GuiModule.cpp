// libspindle-gui.so: the GUI as a module that `spindle` loads with dlopen() only when
// it runs without --headless, so a headless machine needs no Qt at run time. The one
// exported symbol is the entry point below; `spindle` passes the parsed command line.
#include "gui/GuiSession.h"

extern "C" __attribute__((visibility("default"))) int spindle_gui_main(int* argc, char** argv,
                                                                       const spindle::gui::GuiLaunch* launch) {
  return spindle::gui::runGui(*argc, argv, *launch);
}
