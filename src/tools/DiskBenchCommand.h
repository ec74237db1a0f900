#pragma once
// spindle-diskbench's command line.
#include <ostream>
#include <string>
#include <vector>

namespace spindle::tools {

// Exit status: 0 benchmark printed, 1 it could not run, 2 bad arguments.
int runDiskBenchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace spindle::tools
