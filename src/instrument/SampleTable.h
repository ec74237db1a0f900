#pragma once
// The instrument's sample table, for loaders of every format (loader thread): a path
// written in the file, resolved against a folder (backslashes and a case-insensitive
// fallback, instrument/Paths.h), entered once; a missing file is listed once in
// Instrument::missingSamples and keeps its entry, so its regions stay and never sound.
// A region that plays its sample backwards gets the file's reversed entry, also once
// (see Instrument::reversedSamples).
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>

#include "instrument/Instrument.h"

namespace spindle::instrument {

class SampleTable {
 public:
  explicit SampleTable(Instrument& instrument) : instrument_(instrument) {}
  // The index of `written` (relative to `folder`) in Instrument::samples.
  int add(const std::filesystem::path& folder, std::string_view written);
  // The index of `path` (already resolved, or a generator name), entered as it is: the
  // caller lists it as missing if it is.
  int addResolved(const std::string& path);
  // The reversed entry of the forward entry `index`: the same path, listed in
  // Instrument::reversedSamples. A negative index (no sample) is returned as it is.
  int reversed(int index);
  // Drops the forward entries of files that only reversed regions play (their sample=
  // was read before direction=reverse turned it round) and renumbers the regions' and
  // reversedSamples' indices, so no loader loads a sample nothing plays. Call once, after
  // the last region: the table adds nothing afterwards.
  void dropUnplayedForward();

 private:
  Instrument& instrument_;
  std::unordered_map<std::string, int> index_;
  std::unordered_map<int, int> reversedOf_;  // forward entry -> its reversed entry
};

}  // namespace spindle::instrument
