#pragma once
// The index's scan, one instrument at a time: which files and folders under a root are
// instruments (by name: .sfz, .sf2, a kit folder...; the loader then reads them by
// content), their stamp (size and time, the cache's key), and an Entry read with
// Spindle's own loader (formats::loadInstrument reads the structure, never the samples'
// audio). Private to src/library. Thread: the index's scan thread.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "library/LibraryIndex.h"

namespace spindle::library::detail {

struct Candidate {
  std::filesystem::path path;  // absolute, as the loaders take it
  std::filesystem::path root;
  std::string format;          // Entry::format
  std::uint64_t bytes = 0;     // the file's size, or the folder's files'
  std::int64_t modified = 0;   // mtime, seconds (a folder: its newest file's)
  std::int64_t modifiedNs = 0; // and its nanoseconds
};

// The format an instrument file or folder named `path` has; empty when it is none.
std::string formatOf(const std::filesystem::path& path, bool folder);
// Every instrument under `root` (the root itself when it is one), until `cancel`.
std::vector<Candidate> findCandidates(const std::filesystem::path& root, const std::atomic<bool>& cancel);
// The entry of `c`, read with Spindle's loader: its error is the loader's first.
Entry describe(const Candidate& c);
// The picture a DecentSampler preset (<ui bgImage>) or a Hydrogen kit (<image>) names,
// absolute; empty when none or when the file is not there.
std::string pictureOf(const std::string& format, const std::filesystem::path& loaded);

}  // namespace spindle::library::detail
