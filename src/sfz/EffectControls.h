#pragma once
// The controls of an <effect> parameter: name_onccN (its depth on CC N), name_curveccN
// (the curve_index CC N goes through, 0..255), name_smoothccN (ms, >= 0) and
// name_stepccN (>= 0). The forms of one controller fill one BusParamCc, in any order; a
// later value of the same form replaces the earlier. Loader thread.
#include <string_view>

#include "core/BusEffects.h"
#include "instrument/Reporter.h"
#include "sfz/Preprocessor.h"

namespace spindle::sfz {

// Whether token names a control of parameter `prefix` (then taken into effect, a value
// out of range clamped with a warning naming the file and line).
bool takeBusControl(BusEffect& effect, BusParam param, std::string_view prefix, const Token& token, double value,
                    instrument::Reporter& reporter);

}  // namespace spindle::sfz
