// Instrument archives unpacked by libarchive, confined to their own folder.
#include "instrument/Archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <memory>
#include <string>

namespace spindle::instrument {

namespace fs = std::filesystem;

namespace {

using Reader = std::unique_ptr<archive, int (*)(archive*)>;

// A reader of `format`: zip, or tar plain or gzip-compressed (what Hydrogen writes as
// .h2drumkit). Only libarchive's built-in gzip is enabled: where it was built without
// zlib it answers ARCHIVE_WARN and would run an external gzip program, which an
// archive from the network must never start, so then only uncompressed tar is read.
Reader reader(ArchiveFormat format) {
  Reader in(archive_read_new(), &archive_read_free);
  if (format == ArchiveFormat::Zip) {
    archive_read_support_format_zip(in.get());
    return in;
  }
  if (archive_read_support_filter_gzip(in.get()) != ARCHIVE_OK) in.reset(archive_read_new());
  archive_read_support_format_tar(in.get());
  archive_read_support_format_gnutar(in.get());
  return in;
}

// `in` opened on `path`; false with `error` naming it.
bool open(archive* in, const fs::path& path, std::string& error) {
  if (archive_read_open_filename(in, path.c_str(), 1 << 16) == ARCHIVE_OK) return true;
  error = path.string() + ": " + archive_error_string(in);
  return false;
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

// What one archive may unpack, counted as it goes (kMaxArchiveEntries, kMaxArchiveBytes):
// entries, bytes as the headers declare them, bytes written; and the messages' name for
// the folder it unpacks into.
struct Budget {
  std::string_view folder;
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

// True when `path` (relative to the archive's folder) stays inside it.
bool staysInside(const fs::path& path) {
  if (path.is_absolute()) return false;
  const fs::path normal = path.lexically_normal();
  return normal.empty() || *normal.begin() != "..";
}

// Why a link entry may not be unpacked, or empty: a hard link's target is a path in
// the archive, a symlink's is relative to the link's folder; both must stay in `folder`.
std::string linkRefusal(archive_entry* entry, const fs::path& name, std::string_view folder) {
  const std::string outside = "', outside " + std::string(folder);
  if (const char* target = archive_entry_hardlink(entry)) {
    if (fs::path(target).is_absolute()) return "is a hard link to the absolute path '" + std::string(target) + "'";
    if (!staysInside(target)) return "is a hard link to '" + std::string(target) + outside;
  }
  if (archive_entry_filetype(entry) == AE_IFLNK) {
    const char* target = archive_entry_symlink(entry);
    const fs::path to = target ? target : "";
    if (to.is_absolute()) return "is a symbolic link to the absolute path '" + to.string() + "'";
    if (to.empty() || !staysInside(name.parent_path() / to)) return "is a symbolic link to '" + to.string() + outside;
  }
  return {};
}

// Why the entry may not be unpacked, or empty; counts it in `budget`.
std::string refusal(archive_entry* entry, const fs::path& name, Budget& budget) {
  if (++budget.entries > kMaxArchiveEntries) return "has more than " + std::to_string(kMaxArchiveEntries) + " entries";
  if (name.is_absolute()) return "entry '" + name.string() + "' has an absolute path";
  if (!staysInside(name)) return "entry '" + name.string() + "' lies outside " + std::string(budget.folder);
  const auto type = archive_entry_filetype(entry);
  const bool hardLink = archive_entry_hardlink(entry) != nullptr;
  if (!hardLink && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
    return "entry '" + name.string() + "' is neither a file, a folder nor a link";
  if (std::string why = linkRefusal(entry, name, budget.folder); !why.empty())
    return "entry '" + name.string() + "' " + why;
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
bool extract(archive* in, archive* out, const fs::path& into, const std::string& where, Budget budget,
             std::string& error) {
  archive_entry* entry = nullptr;
  int status = ARCHIVE_OK;
  while ((status = archive_read_next_header(in, &entry)) == ARCHIVE_OK) {
    const char* name = archive_entry_pathname(entry);
    std::string why = name ? refusal(entry, name, budget) : "an entry's name cannot be read";
    if (why.empty() && writeEntry(in, out, entry, into, budget, why)) continue;
    error = where + ": " + why;
    return false;
  }
  if (status != ARCHIVE_EOF) error = where + ": " + archive_error_string(in);
  return status == ARCHIVE_EOF;
}

}  // namespace

bool unpackArchive(const fs::path& archivePath, ArchiveFormat format, const fs::path& into, std::string_view folder,
                   std::string& error) {
  const Reader in = reader(format);
  const Reader out = confinedWriter();
  if (!open(in.get(), archivePath, error)) return false;
  std::error_code ec;
  fs::create_directories(into, ec);
  if (extract(in.get(), out.get(), into, archivePath.string(), Budget{folder}, error)) return true;
  fs::remove_all(into, ec);  // the archive's own folder: nothing half unpacked stays
  return false;
}

bool archiveHolds(const fs::path& archivePath, ArchiveFormat format, std::string_view name) {
  const Reader in = reader(format);
  std::string error;
  if (!open(in.get(), archivePath, error)) return false;
  archive_entry* entry = nullptr;
  for (int n = 0; n < kMaxArchiveEntries && archive_read_next_header(in.get(), &entry) == ARCHIVE_OK; ++n)
    if (const char* path = archive_entry_pathname(entry); path && name == path) return true;
  return false;
}

}  // namespace spindle::instrument
