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
  Reader in(archive_read_new(), &archive_read_free);
  Reader out(archive_write_disk_new(), &archive_write_free);
  archive_read_support_filter_all(in.get());
  archive_read_support_format_tar(in.get());
  archive_read_support_format_gnutar(in.get());
  // No "..", no writing through symlinks, and absolute names refused below: the
  // archive stays inside `into` (which is itself absolute, so libarchive's own
  // no-absolute-paths check cannot be used once the entry is placed there).
  archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                ARCHIVE_EXTRACT_SECURE_SYMLINKS);
  if (archive_read_open_filename(in.get(), archivePath.c_str(), 1 << 16) != ARCHIVE_OK) {
    error = archivePath.string() + ": " + archive_error_string(in.get());
    return {};
  }
  std::error_code ec;
  fs::create_directories(into, ec);
  archive_entry* entry = nullptr;
  int status = ARCHIVE_OK;
  while ((status = archive_read_next_header(in.get(), &entry)) == ARCHIVE_OK) {
    const fs::path name = archive_entry_pathname(entry);
    if (name.is_absolute()) {
      error = archivePath.string() + ": entry '" + name.string() + "' has an absolute path";
      return {};
    }
    archive_entry_set_pathname(entry, (into / name).c_str());
    if (archive_write_header(out.get(), entry) != ARCHIVE_OK) {
      error = archivePath.string() + ": " + archive_error_string(out.get());
      return {};
    }
    const void* block = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    int r = ARCHIVE_OK;
    while ((r = archive_read_data_block(in.get(), &block, &size, &offset)) == ARCHIVE_OK)
      if (archive_write_data_block(out.get(), block, size, offset) != ARCHIVE_OK) break;
    if (r != ARCHIVE_EOF) {
      error = archivePath.string() + ": " + (archive_error_string(in.get()) ? archive_error_string(in.get()) : "damaged");
      return {};
    }
    archive_write_finish_entry(out.get());
  }
  if (status != ARCHIVE_EOF) {
    error = archivePath.string() + ": " + archive_error_string(in.get());
    return {};
  }
  const fs::path kit = findKit(into);
  if (kit.empty()) error = archivePath.string() + ": no drumkit.xml in the archive";
  return kit;
}

}  // namespace spindle::hydrogen
