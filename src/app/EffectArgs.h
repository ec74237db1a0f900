#pragma once
// The shared reverb's and chorus's options and the master gain, the same on `spindle`
// and `spindle-render`: --reverb on|off, --chorus on|off and one option per setting,
// named as in core/EffectParams.h (--reverb-room-size 0.2, --chorus-depth 8,
// --master-gain -6, ...).
#include <string>

#include "core/EffectParams.h"

namespace spindle::app {

enum class EffectArg { NotEffect, Taken, Wrong };

// Sets `values` from `--option value`; Wrong with `error` set ("invalid value 'x' for
// --reverb-level (expected 0 to 1)") when the value is out of range or not a number.
EffectArg applyEffectArg(EffectValues& values, const std::string& option, const std::string& value,
                         std::string& error);

// The options' help lines, aligned at `column`.
std::string effectArgsUsage(int column);

}  // namespace spindle::app
