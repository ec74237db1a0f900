#pragma once
// Runs a helper program (gzip, pw-metadata) and captures its standard output.
// Not for real-time threads: it forks, waits and allocates.
#include <optional>
#include <string>
#include <vector>

namespace spindle::tools {

// Runs argv[0] (looked up in PATH) with stdin and stderr on /dev/null. Returns its standard
// output when it exits with status 0, nothing when it cannot start or fails.
std::optional<std::string> captureOutput(const std::vector<std::string>& argv);

}  // namespace spindle::tools
