#pragma once
// WorkMessage: what run() hands the host's worker (LV2_Worker_Schedule) and what the
// worker hands back (work_response). The host copies the bytes: a header, then the
// path's bytes (NUL included) when there is one; a kWorkLoaded response then carries the
// instrument's ControlMap. Trivially copyable, no pointers.
#include <cstdint>
#include <type_traits>

#include "plugin/ControlMap.h"

namespace spindle::lv2 {

enum WorkKind : uint32_t {
  kWorkLoad = 1,     // load the path and play it on every part
  kWorkLevel = 2,    // part 0's level: value in dB
  kWorkCollect = 3,  // free the Programs the engine handed back
  kWorkLoaded = 4,   // response: the path now playing
};

struct WorkHeader {
  uint32_t kind = 0;
  float value = 0.0f;
  uint32_t pathBytes = 0;  // bytes following the header, the NUL included
};
static_assert(std::is_trivially_copyable_v<WorkHeader>);

// The instrument's labelled controls as the "Control N" ports play them (plugin/ControlMap.h).
using plugin::ControlMap;
using plugin::kControlPorts;
using plugin::kLabelBytes;

}  // namespace spindle::lv2
