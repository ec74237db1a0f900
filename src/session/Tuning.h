#pragma once
// A part's tuning, read from its Scala scale and keyboard map (instrument/Scala.h): the
// one reading of tuning files, for the session's parts (OSC, the window, --scale) and
// spindle-render's --scale.
//
// Thread: any (it reads files: never the audio thread).
#include <optional>
#include <string>

#include "core/Tuning.h"

namespace spindle::session {

struct PartTuning {
  KeyTuning tuning = KeyTuning::equalTemperament();
  std::string scaleName;  // the .scl's description, or its file name; empty: 12-TET
};

// Either file may be empty; both empty is 12-TET. Nullopt with `error` = "file:line:
// message" when one cannot be read or is invalid.
std::optional<PartTuning> readTuning(const std::string& scale, const std::string& keymap, std::string& error);

}  // namespace spindle::session
