#pragma once
// `spindle --list-libraries [--json]`: the installed instruments (library/LibraryIndex.h),
// printed once a full scan of the standard places and the user's folders has ended:
// name, format and path, a SoundFont's presets under it, and each one's load error.
// --json prints one JSON document (library/EntryJson.h's form) instead. Exit 0; 2 for
// an option it does not take.
#include <ostream>
#include <string>
#include <vector>

namespace spindle::app {

bool wantsLibraryList(const std::vector<std::string>& args);
int runListLibraries(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace spindle::app
