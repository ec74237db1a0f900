#pragma once
// The instrument's sample table, for loaders of every format (loader thread): a path
// written in the file, resolved against a folder (backslashes and a case-insensitive
// fallback, as for SFZ), entered once; a missing file is listed once in
// Instrument::missingSamples and keeps its entry, so its regions stay and never sound.
#include <filesystem>
#include <string_view>
#include <unordered_map>

#include "sfz/Instrument.h"

namespace spindle::sfz {

class SampleTable {
 public:
  explicit SampleTable(Instrument& instrument) : instrument_(instrument) {}
  // The index of `written` (relative to `folder`) in Instrument::samples.
  int add(const std::filesystem::path& folder, std::string_view written);

 private:
  Instrument& instrument_;
  std::unordered_map<std::string, int> index_;
};

}  // namespace spindle::sfz
