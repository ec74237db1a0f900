// libspindle-gui.so: the GUI as a module that `spindle` loads with dlopen() only when
// it runs without --headless, so a headless machine needs no Qt at run time. The one
// exported symbol is the entry point the app's contract declares (app/GuiLaunch.h:
// GuiEntry, named kGuiEntryName); `spindle` passes the parsed command line.
#include <type_traits>

#include "app/GuiLaunch.h"
#include "gui/GuiSession.h"

extern "C" __attribute__((visibility("default"))) int spindle_gui_main(int* argc, char** argv,
                                                                       const spindle::app::GuiLaunch* launch) {
  return spindle::gui::runGui(*argc, argv, *launch);
}
static_assert(std::is_same_v<decltype(&spindle_gui_main), spindle::app::GuiEntry>);
