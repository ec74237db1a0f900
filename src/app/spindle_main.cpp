// spindle: the live sampler: the window (GuiModuleLoader.h), or --headless (LiveSession.h).
#include <iostream>
#include <string>
#include <vector>

#include "app/GuiModuleLoader.h"
#include "app/ListLibraries.h"
#include "app/LiveSession.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (spindle::app::wantsLibraryList(args)) return spindle::app::runListLibraries(args, std::cout, std::cerr);
  if (spindle::app::wantsGui(args)) return spindle::app::runGuiModule(argc, argv, std::cerr);
  return spindle::app::runLive(args, std::cout, std::cerr);
}
