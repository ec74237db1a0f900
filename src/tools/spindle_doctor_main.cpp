// spindle-doctor: checks the kernel, limits and audio setup for low-latency playing.
#include <iostream>
#include <string>
#include <vector>

#include "tools/DoctorCommand.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return spindle::tools::runDoctorCommand(args, spindle::tools::SystemRoot::live(), std::cout, std::cerr);
}
