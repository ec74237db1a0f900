#pragma once
// An archive written entry by entry with libarchive, for the tests that build instrument
// archives: a zip with stored entries (as the .multisample format asks) or a gzipped pax
// tar (.h2drumkit), with files, links and sparse entries.
#include <archive.h>
#include <archive_entry.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "catch.h"

namespace spindle::test {

class ArchiveWriter {
 public:
  enum class Format { Zip, TarGz, TarXz };
  explicit ArchiveWriter(const std::filesystem::path& file, Format format = Format::Zip) : a_(archive_write_new()) {
    if (format == Format::Zip) {
      archive_write_set_format_zip(a_);
      archive_write_zip_set_compression_store(a_);
    } else {
      archive_write_set_format_pax(a_);
      if (format == Format::TarGz) archive_write_add_filter_gzip(a_);
      else archive_write_add_filter_xz(a_);
    }
    REQUIRE(archive_write_open_filename(a_, file.c_str()) == ARCHIVE_OK);
  }
  ~ArchiveWriter() { archive_write_free(a_); }  // closes the archive
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

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
  void hardLink(const std::string& name, const std::string& target) {
    archive_entry* e = entry(name, AE_IFREG);
    archive_entry_set_hardlink(e, target.c_str());
    write(e, {});
  }
  void symlink(const std::string& name, const std::string& target) {
    archive_entry* e = entry(name, AE_IFLNK);
    archive_entry_set_symlink(e, target.c_str());
    write(e, {});
  }
  // A file of `size` bytes whose only data are its last 512 bytes.
  void sparse(const std::string& name, int64_t size) {
    archive_entry* e = entry(name, AE_IFREG);
    archive_entry_set_size(e, size);
    archive_entry_sparse_add_entry(e, size - 512, 512);
    write(e, std::string(512, 'x'));
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
