// spindle-osc: sends one signed OSC message to a Spindle and prints its replies.
#include <iostream>
#include <string>
#include <vector>

#include "tools/OscClient.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return spindle::tools::runOscClient(args, std::cout, std::cerr);
}
