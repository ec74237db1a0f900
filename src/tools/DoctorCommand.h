#pragma once
// spindle-doctor's command line: argument parsing, report, --apply.
#include <ostream>
#include <string>
#include <vector>

#include "tools/SystemRoot.h"

namespace spindle::tools {

// Returns the exit status: 0 report printed (and --apply fully done), 1 --apply refused or
// partly failed, 2 bad arguments.
int runDoctorCommand(const std::vector<std::string>& args, const SystemRoot& system, std::ostream& out,
                     std::ostream& err);

}  // namespace spindle::tools
