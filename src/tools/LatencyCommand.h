#pragma once
// spindle-latency's command line.
#include <ostream>
#include <string>
#include <vector>

namespace spindle::tools {

// Exit status: 0 measured, 2 bad arguments.
int runLatencyCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace spindle::tools
