// ExitCodes: what spindle and spindle-render return, one list for every door.
#pragma once

namespace spindle::app {

inline constexpr int kExitInput = 1;             // an instrument, song or file could not be read
inline constexpr int kExitUsage = 2;             // the command line is wrong
inline constexpr int kExitReadDuringRender = 3;  // samples failed to read while rendering

}  // namespace spindle::app
