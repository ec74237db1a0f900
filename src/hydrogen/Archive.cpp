// .h2drumkit archives: a tar (usually gzipped) of one kit folder, unpacked by libarchive.
#include <archive.h>
#include <archive_entry.h>

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
// through symlinks, and absolute names refused by extract() (the folder is itself
// absolute, so libarchive's own no-absolute-paths check cannot be used once the entry
// is placed there).
Reader confinedWriter() {
  Reader out(archive_write_disk_new(), &archive_write_free);
  archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                ARCHIVE_EXTRACT_SECURE_SYMLINKS);
  return out;
}

// The current entry's data from `in` to `out`; ARCHIVE_EOF when all of it was read.
int copyData(archive* in, archive* out) {
  const void* block = nullptr;
  size_t size = 0;
  la_int64_t offset = 0;
  int r = ARCHIVE_OK;
  while ((r = archive_read_data_block(in, &block, &size, &offset)) == ARCHIVE_OK)
    if (archive_write_data_block(out, block, size, offset) != ARCHIVE_OK) break;
  return r;
}

// Every entry of `in` written under `into`; false with `error` (prefixed by `where`)
// at the first that cannot be.
bool extract(archive* in, archive* out, const fs::path& into, const std::string& where, std::string& error) {
  archive_entry* entry = nullptr;
  int status = ARCHIVE_OK;
  while ((status = archive_read_next_header(in, &entry)) == ARCHIVE_OK) {
    const fs::path name = archive_entry_pathname(entry);
    if (name.is_absolute()) {
      error = where + ": entry '" + name.string() + "' has an absolute path";
      return false;
    }
    archive_entry_set_pathname(entry, (into / name).c_str());
    if (archive_write_header(out, entry) != ARCHIVE_OK) {
      error = where + ": " + archive_error_string(out);
      return false;
    }
    if (copyData(in, out) != ARCHIVE_EOF) {
      error = where + ": " + (archive_error_string(in) ? archive_error_string(in) : "damaged");
      return false;
    }
    archive_write_finish_entry(out);
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
  if (!extract(in.get(), out.get(), into, archivePath.string(), error)) return {};
  const fs::path kit = findKit(into);
  if (kit.empty()) error = archivePath.string() + ": no drumkit.xml in the archive";
  return kit;
}

}  // namespace spindle::hydrogen
