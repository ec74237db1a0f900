#include "session/Tuning.h"

#include "instrument/Scala.h"

namespace spindle::session {

std::optional<PartTuning> readTuning(const std::string& scale, const std::string& keymap, std::string& error) {
  instrument::TuningResult result;
  instrument::TuningFileError fileError;
  if (!instrument::loadTuning({scale, keymap}, result, fileError)) {
    error = fileError.text();
    return std::nullopt;
  }
  error.clear();
  return PartTuning{result.tuning, result.scaleName};
}

}  // namespace spindle::session
