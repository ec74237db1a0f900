#pragma once
// spindle-render's whole run: arguments, loading, rendering, the summary.
// Everything it prints goes to `out` (the summary) and `err` (problems), so tests
// and other front ends can run it in-process.
#include <ostream>
#include <string>
#include <vector>

namespace spindle::app {

// Exit status: 0 rendered, 1 an input unreadable or the output unwritable, 2 usage.
int runRender(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace spindle::app
