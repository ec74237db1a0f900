#pragma once
// What a loader has to say about the file it read: a warning (something skipped, clamped
// or not played) or an error (the file, or a part of it, could not be read). Loaders
// never throw for bad input; their problems end up in Instrument::diagnostics, through
// a Reporter (instrument/Reporter.h).
#include <string>

namespace spindle::instrument {

struct Diagnostic {
  enum class Severity { Warning, Error } severity;
  std::string file;  // the file the message is about (an included file, a preset, a kit)
  int line;          // 1-based; 0 = the file as a whole
  std::string message;
};

}  // namespace spindle::instrument
