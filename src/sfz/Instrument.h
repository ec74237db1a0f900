#pragma once
// An SFZ instrument as the parser hands it over: regions with inheritance applied and
// values clamped, the sample table they index, and everything the parser had to say.
//
// Built on the loader thread, then read-only; the engine sees only its regions (through
// the loader), never this struct while it is being built.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "core/Region.h"

namespace spindle::sfz {

struct Diagnostic {
  enum class Severity { Warning, Error } severity;
  std::string file;  // the .sfz (or included file) the message is about
  int line;          // 1-based; 0 = the file as a whole
  std::string message;
};

// Where a region's <region> header was written.
struct RegionOrigin {
  std::string file;
  int line;
};

// A <curve> (curve_index=N, v000..v127): 128 points, given ones linearly interpolated,
// v000=0 and v127=1 unless given.
struct Curve {
  int index = 0;
  std::array<float, 128> points{};
};

struct Instrument {
  bool ok = false;                  // false: the file itself was unreadable (diagnostics say why)
  std::string name;                 // file stem
  std::filesystem::path path;       // the .sfz
  std::vector<spindle::Region> regions;  // inheritance applied, values clamped
  std::vector<RegionOrigin> origins;     // parallel to regions
  // Unique sample table; Region::sampleIndex indexes it. Absolute resolved paths (the
  // case-insensitive match when the written case was wrong), or generator names
  // ("*sine", "*silence", "*noise"...) verbatim. Missing samples stay in the table (their
  // regions are kept, so region numbering follows the file) and are listed below.
  std::vector<std::string> samples;
  std::vector<std::string> missingSamples;  // each unresolvable sample once, absolute path
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> unknownOpcodes;  // unique names unknown to the SFZ reference
  std::vector<Curve> curves;                // <curve> headers, in file order
  int swDefault = -1;                       // sw_default seen anywhere (instrument-wide)
};

}  // namespace spindle::sfz
