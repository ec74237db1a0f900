// spindle-latency: wakeup and JACK callback latency, optionally under stress.
#include <iostream>
#include <string>
#include <vector>

#include "tools/LatencyCommand.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return spindle::tools::runLatencyCommand(args, std::cout, std::cerr);
}
