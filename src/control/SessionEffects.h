#pragma once
// The [effects] section of a session file: the shared reverb and chorus, one line per
// setting, named as the command-line options are (core/EffectParams.h):
//
//   [effects]
//   reverb = on
//   reverb-room-size = 0.2
//   ...
//   chorus-depth = 8
//
// A file without the section, or a setting it leaves out, keeps FluidSynth's default.
// Thread: any.
#include <string>

#include "core/EffectParams.h"

namespace spindle::control {

std::string formatEffectsSection(const EffectValues& values);
// Sets one line's setting; false with `message` (without file and line) when the key
// or the value is wrong.
bool parseEffectsLine(EffectValues& values, const std::string& key, const std::string& value, std::string& message);

}  // namespace spindle::control
