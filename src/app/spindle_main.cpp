// spindle: the live sampler. Headless for now (the GUI comes later); see LiveSession.h.
#include <iostream>
#include <string>
#include <vector>

#include "app/LiveSession.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return spindle::app::runLive(args, std::cout, std::cerr);
}
