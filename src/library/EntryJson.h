#pragma once
// Entries as JSON, one document: the cache file (Cache in LibraryIndex.cpp) and
// `spindle --list-libraries --json` write the same form, the cache reads it back.
//
//   {"version": 1, "entries": [{"name": "Piano", "format": "sfz", "path": "/…/piano.sfz", "root": "/…",
//     "bytes": 1234, "regions": 88, "samples": 88, "loKey": 21, "hiKey": 108,
//     "controls": ["Release"], "picture": "", "presets": [{"bank": 0, "program": 0,
//     "name": "Grand"}], "error": "", "modified": 1700000000,
//     "modifiedNs": 250000000}, …]}
//
// Thread: any (pure functions).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "library/LibraryIndex.h"

namespace spindle::library {

// The form's version: a document of another version is not read (a cache an older
// index wrote is read again).
inline constexpr int kJsonVersion = 1;

std::string toJson(const std::vector<Entry>& entries);
// The entries of a document toJson() wrote; nothing when `text` is not such a document.
std::optional<std::vector<Entry>> fromJson(std::string_view text);

}  // namespace spindle::library
