#pragma once
// A zip written entry by entry with libarchive (stored, as the .multisample format asks),
// for the tests that build .multisample archives.
#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "catch.h"

namespace spindle::test {

class ZipWriter {
 public:
  explicit ZipWriter(const std::filesystem::path& file) : a_(archive_write_new()) {
    archive_write_set_format_zip(a_);
    archive_write_zip_set_compression_store(a_);
    REQUIRE(archive_write_open_filename(a_, file.c_str()) == ARCHIVE_OK);
  }
  ~ZipWriter() { archive_write_free(a_); }  // closes the archive
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  void file(const std::string& name, const std::string& content) {
    archive_entry* e = entry(name, AE_IFREG);
    archive_entry_set_size(e, static_cast<la_int64_t>(content.size()));
    write(e, content);
  }
  // The bytes of the file at `from`, as entry `name`.
  void copy(const std::string& name, const std::filesystem::path& from) {
    std::ifstream in(from, std::ios::binary);
    file(name, std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
  }
  void symlink(const std::string& name, const std::string& target) {
    archive_entry* e = entry(name, AE_IFLNK);
    archive_entry_set_symlink(e, target.c_str());
    write(e, {});
  }

 private:
  static archive_entry* entry(const std::string& name, unsigned type) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, 0644);
    return e;
  }
  void write(archive_entry* e, const std::string& data) {
    REQUIRE(archive_write_header(a_, e) == ARCHIVE_OK);
    if (!data.empty()) REQUIRE(archive_write_data(a_, data.data(), data.size()) == static_cast<la_ssize_t>(data.size()));
    archive_entry_free(e);
  }
  archive* a_;
};

}  // namespace spindle::test
