#pragma once
// LoadReport: what one load of an instrument file found, in every form a front door
// shows it: the report's lists (spindle-render's summary, the headless log, the LV2
// host's log), the problem rows of a part (the window's problems list) and the lines
// the problem log keeps (OSC's /spindle/problems).
//
// Thread: any; built on the loader thread and handed over by value.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "instrument/Instrument.h"

namespace spindle::session {

// A sample file the pool found but did not load: unreadable, or over the memory budget,
// with where the first region that plays it was written.
struct SampleError {
  std::string file;
  std::string message;  // the pool's sentence naming the file
  std::string origin;   // the instrument file of that region
  int line = 0;         // 1-based; 0: the file as a whole
  std::string label;    // the region's name (region_label, group_label...); empty: none
};

struct LoadReport {
  std::filesystem::path sfzPath;
  bool ok = false;                          // false: the .sfz itself could not be read
  bool cancelled = false;                   // stopped between two sample files (LoadProgress)
  std::string name;
  std::size_t regions = 0;
  std::size_t samples = 0;                  // distinct sample files (and generators) the regions play
  std::size_t samplesLoaded = 0;
  std::vector<std::string> missingFiles;    // each missing sample file once
  std::vector<SampleError> sampleErrors;    // unreadable, over the memory budget, unknown generators
  std::vector<std::string> sampleWarnings;  // e.g. more than two channels
  std::vector<std::string> unknownOpcodes;
  std::vector<instrument::Diagnostic> diagnostics;
  std::size_t bytesInRam = 0;               // the pool's total after this load
  std::size_t loopTailBytes = 0;            // this program's loop tails: crossfades, loop_sustain exits
  double seconds = 0.0;                     // wall time of the load

  std::size_t errorCount() const noexcept;  // error diagnostics
  // The sample files the instrument plays that did not load (missing or refused).
  int samplesNotLoaded() const noexcept { return static_cast<int>(missingFiles.size() + sampleErrors.size()); }
};

// "file:line: error: message" (line omitted when 0), as compilers print them.
std::string formatDiagnostic(const instrument::Diagnostic& diagnostic);

// One problem a load found, where it was written: a row of the window's problems list.
struct Problem {
  enum class Severity : uint8_t { Warning, Error };
  Severity severity = Severity::Warning;
  std::string file;  // the instrument file or one it includes
  int line = 0;      // 1-based; 0 = the file as a whole
  std::string message;
};

// The report's problems as rows: the parser's diagnostics, each sample file refused
// (at the region that plays it), the pool's warnings. A missing file is among the
// diagnostics already, where the parser met it.
std::vector<Problem> problemRows(const LoadReport& report);

// "cannot load PATH: FILE:LINE: error: ..." (the first error), for a load that built nothing.
std::string failureText(const std::string& path, const LoadReport& report);

}  // namespace spindle::session
