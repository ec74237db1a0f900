// .h2drumkit archives: a tar (usually gzipped) of one kit folder, unpacked by libarchive.
#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <memory>
#include <string>

#include "hydrogen/DrumKit.h"

namespace spindle::hydrogen {

namespace fs = std::filesystem;

namespace {

using Reader = std::unique_ptr<archive, int (*)(archive*)>;

// A reader of tar archives under any compression libarchive knows.
Reader tarReader() {
  Reader in(archive_read_new(), &archive_read_free);
  archive_read_support_filter_all(in.get());
  archive_read_support_format_tar(in.get());
  archive_read_support_format_gnutar(in.get());
  return in;
}

// A writer to disk that stays inside the folder it is given: no "..", no writing
// through symlinks, and absolute names and link targets refused by refusal() (the
// folder is itself absolute, so libarchive's own no-absolute-paths check cannot be used
// once the entry is placed there).
Reader confinedWriter() {
  Reader out(archive_write_disk_new(), &archive_write_free);
  archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                ARCHIVE_EXTRACT_SECURE_SYMLINKS);
  return out;
}

// What one archive may unpack, counted as it goes (DrumKit.h: kMaxArchiveEntries,
// kMaxArchiveBytes): entries, bytes as the headers declare them, bytes written.
struct Budget {
  int entries = 0;
  uint64_t declared = 0, written = 0;
};

std::string tooLarge() { return "unpacks to more than " + std::to_string(kMaxArchiveBytes >> 30) + " GiB"; }

// The current entry's data from `in` to `out`; ARCHIVE_EOF when all of it was read.
// Stops with `bound` set when the archive's bytes written would pass the bound.
int copyData(archive* in, archive* out, Budget& budget, std::string& bound) {
  const void* block = nullptr;
  size_t size = 0;
  la_int64_t offset = 0;
  int r = ARCHIVE_OK;
  while ((r = archive_read_data_block(in, &block, &size, &offset)) == ARCHIVE_OK) {
    budget.written += size;
    if (budget.written > kMaxArchiveBytes) {
      bound = tooLarge();
      return ARCHIVE_FATAL;
    }
    if (archive_write_data_block(out, block, size, offset) != ARCHIVE_OK) break;
  }
  return r;
}

// True when `path` (relative to the kit folder) stays inside it.
bool staysInside(const fs::path& path) {
  if (path.is_absolute()) return false;
  const fs::path normal = path.lexically_normal();
  return normal.empty() || *normal.begin() != "..";
}

// Why a link entry may not be unpacked, or empty: a hard link's target is a path in
// the archive, a symlink's is relative to the link's folder; both must stay in the kit.
std::string linkRefusal(archive_entry* entry, const fs::path& name) {
  if (const char* target = archive_entry_hardlink(entry)) {
    if (fs::path(target).is_absolute()) return "is a hard link to the absolute path '" + std::string(target) + "'";
    if (!staysInside(target)) return "is a hard link to '" + std::string(target) + "', outside the kit folder";
  }
  if (archive_entry_filetype(entry) == AE_IFLNK) {
    const char* target = archive_entry_symlink(entry);
    const fs::path to = target ? target : "";
    if (to.is_absolute()) return "is a symbolic link to the absolute path '" + to.string() + "'";
    if (to.empty() || !staysInside(name.parent_path() / to))
      return "is a symbolic link to '" + to.string() + "', outside the kit folder";
  }
  return {};
}

// Why the entry may not be unpacked, or empty; counts it in `budget`.
std::string refusal(archive_entry* entry, const fs::path& name, Budget& budget) {
  if (++budget.entries > kMaxArchiveEntries) return "has more than " + std::to_string(kMaxArchiveEntries) + " entries";
  if (name.is_absolute()) return "entry '" + name.string() + "' has an absolute path";
  if (!staysInside(name)) return "entry '" + name.string() + "' lies outside the kit folder";
  const auto type = archive_entry_filetype(entry);
  const bool hardLink = archive_entry_hardlink(entry) != nullptr;
  if (!hardLink && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
    return "entry '" + name.string() + "' is neither a file, a folder nor a link";
  if (std::string why = linkRefusal(entry, name); !why.empty()) return "entry '" + name.string() + "' " + why;
  if (archive_entry_size_is_set(entry))
    budget.declared += static_cast<uint64_t>(std::max<la_int64_t>(archive_entry_size(entry), 0));
  return budget.declared > kMaxArchiveBytes ? tooLarge() : std::string();
}

// Writes the entry under `into` (a hard link's target too); false with `error`.
bool writeEntry(archive* in, archive* out, archive_entry* entry, const fs::path& into, Budget& budget,
                std::string& error) {
  archive_entry_set_pathname(entry, (into / archive_entry_pathname(entry)).c_str());
  if (const char* target = archive_entry_hardlink(entry)) archive_entry_set_hardlink(entry, (into / target).c_str());
  if (archive_write_header(out, entry) != ARCHIVE_OK) {
    error = archive_error_string(out);
    return false;
  }
  std::string bound;
  if (copyData(in, out, budget, bound) != ARCHIVE_EOF) {
    const char* why = archive_error_string(in);
    error = !bound.empty() ? bound : why ? why : "damaged";
    return false;
  }
  archive_write_finish_entry(out);
  return true;
}

// Every entry of `in` written under `into`; false with `error` (prefixed by `where`)
// at the first that cannot be.
bool extract(archive* in, archive* out, const fs::path& into, const std::string& where, std::string& error) {
  archive_entry* entry = nullptr;
  int status = ARCHIVE_OK;
  Budget budget;
  while ((status = archive_read_next_header(in, &entry)) == ARCHIVE_OK) {
    std::string why = refusal(entry, archive_entry_pathname(entry), budget);
    if (why.empty() && writeEntry(in, out, entry, into, budget, why)) continue;
    error = where + ": " + why;
    return false;
  }
  if (status != ARCHIVE_EOF) error = where + ": " + archive_error_string(in);
  return status == ARCHIVE_EOF;
}

// Where the kit landed: the folder of the first drumkit.xml unpacked.
fs::path findKit(const fs::path& root) {
  std::error_code ec;
  if (fs::exists(root / "drumkit.xml", ec)) return root;
  for (const auto& entry : fs::recursive_directory_iterator(root, ec))
    if (entry.path().filename() == "drumkit.xml") return entry.path().parent_path();
  return {};
}

}  // namespace

fs::path unpackArchive(const fs::path& archivePath, const fs::path& into, std::string& error) {
  const Reader in = tarReader();
  const Reader out = confinedWriter();
  if (archive_read_open_filename(in.get(), archivePath.c_str(), 1 << 16) != ARCHIVE_OK) {
    error = archivePath.string() + ": " + archive_error_string(in.get());
    return {};
  }
  std::error_code ec;
  fs::create_directories(into, ec);
  if (!extract(in.get(), out.get(), into, archivePath.string(), error)) {
    fs::remove_all(into, ec);  // the archive's own folder: nothing half unpacked stays
    return {};
  }
  const fs::path kit = findKit(into);
  if (kit.empty()) error = archivePath.string() + ": no drumkit.xml in the archive";
  return kit;
}

}  // namespace spindle::hydrogen
