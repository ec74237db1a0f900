#pragma once
// Unpacking an instrument archive (a Hydrogen .h2drumkit tar, a .multisample zip) into a
// folder of its own, for the loaders of every format: one guarded path, so no loader
// writes a second unzip. Loader thread (reads and writes files, allocates).
//
// An archive is refused, and its folder removed, when an entry's path or a link's target
// is absolute or leaves the folder (a symbolic link's target counts from the link's
// folder, a hard link's from the archive's root), when an entry is not a file, a folder
// or a link, or past the bounds below. Nothing is written outside the folder, nor
// through a link.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace spindle::instrument {

// What one archive may unpack: entries, and bytes (the sum of the entries' sizes as
// their headers declare them, and again as written).
inline constexpr int kMaxArchiveEntries = 10000;
inline constexpr uint64_t kMaxArchiveBytes = uint64_t{2} << 30;  // 2 GiB

enum class ArchiveFormat {
  Tar,  // tar under any compression libarchive reads (gzip, bzip2, xz...)
  Zip,
};

// Unpacks `archive` under `into`; false with `error` (naming the archive and saying
// why), and `into` removed, when it cannot. `folder` names `into` in the messages
// ("the kit folder").
bool unpackArchive(const std::filesystem::path& archive, ArchiveFormat format, const std::filesystem::path& into,
                   std::string_view folder, std::string& error);

// True when `archive` reads as `format` and one of its entries is named `entry` (a path
// inside the archive, compared as written). Reads the headers only.
bool archiveHolds(const std::filesystem::path& archive, ArchiveFormat format, std::string_view entry);

}  // namespace spindle::instrument
