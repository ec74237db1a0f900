// spindle-diskbench: how many voices this disk can stream, and with which read size.
#include <iostream>
#include <string>
#include <vector>

#include "tools/DiskBenchCommand.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return spindle::tools::runDiskBenchCommand(args, std::cout, std::cerr);
}
