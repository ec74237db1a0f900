#pragma once
// The OSC addresses of the library index (library/LibraryIndex.h), the instruments
// installed on this machine: /spindle/library/list, /spindle/library/search,
// /spindle/library/rescan, /spindle/library/progress. Part of OscApi's table (OscApi.h),
// which adds them after its own. The index scans on its own thread; these only read it.
// Thread: the control thread.
#include <vector>

#include "control/OscApi.h"

namespace spindle::control {

std::vector<OscEntry> libraryApi();
std::vector<OscReplyDoc> libraryReplies();

}  // namespace spindle::control
