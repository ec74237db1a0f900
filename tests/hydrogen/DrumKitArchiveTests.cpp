// .h2drumkit archives written here with libarchive: links that stay inside the kit
// unpack, links that leave it (absolute or relative), too many entries and a sparse
// entry larger than the bound are refused, naming the archive, and leave nothing behind:
// not in the cache folder, and nothing anywhere outside it.
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

#include <set>
#include <string>

#include "ArchiveWriter.h"
#include "TestUtil.h"
#include "catch.h"
#include "hydrogen/DrumKit.h"

namespace drum_kit_archive_tests {

namespace fs = std::filesystem;

namespace {

const char* kXml = "<drumkit_info><name>K</name><instrumentList><instrument><filename>a.wav</filename>"
                   "</instrument></instrumentList></drumkit_info>";

// A gzipped pax tar, entry by entry.
struct TarWriter : spindle::test::ArchiveWriter {
  explicit TarWriter(const fs::path& file) : ArchiveWriter(file, Format::TarGz) {}
};

// Every path under `root` (links not followed).
std::set<std::string> tree(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) out.insert(fs::relative(e.path(), root).string());
  return out;
}

// A scratch folder with a file outside the cache that archives aim at.
struct Scene {
  spindle::test::TempDir dir;
  fs::path cache = dir.path() / "cache", outside = dir.path() / "outside", secret = outside / "secret.txt";
  fs::path archive = dir.path() / "kit.h2drumkit";
  Scene() { dir.write("outside/secret.txt", "secret"); }

  // Unpacks the archive; checks that it was refused with `reason` and left nothing.
  void checkRefused(const std::string& reason) {
    const std::set<std::string> before = tree(dir.path());
    std::string error;
    const fs::path kit = spindle::hydrogen::unpackArchive(archive, cache / "kit-1", error);
    CHECK(kit.empty());
    CHECK(error == archive.string() + ": " + reason);
    CHECK(!fs::exists(cache / "kit-1"));
    std::set<std::string> after = tree(dir.path());
    after.erase("cache");
    CHECK(after == before);
    CHECK(fs::hard_link_count(secret) == 1);
    CHECK(fs::file_size(secret) == 6);
  }
};

}  // namespace

TEST_CASE("h2drumkit: links that stay in the kit unpack, a hard link inside the unpacked folder") {
  Scene s;
  {
    TarWriter tar(s.archive);
    tar.file("Kit/drumkit.xml", kXml);
    tar.file("Kit/a.wav", "RIFF");
    tar.hardLink("Kit/b.wav", "Kit/a.wav");
    tar.symlink("Kit/c.wav", "a.wav");
  }
  std::string error;
  const fs::path kit = spindle::hydrogen::unpackArchive(s.archive, s.cache / "kit-1", error);
  INFO(error);
  REQUIRE(kit == s.cache / "kit-1" / "Kit");
  struct stat a {}, b {};
  REQUIRE((::stat((kit / "a.wav").c_str(), &a) == 0 && ::stat((kit / "b.wav").c_str(), &b) == 0));
  CHECK((a.st_ino == b.st_ino && a.st_nlink == 2));
  CHECK(fs::read_symlink(kit / "c.wav") == "a.wav");
}

TEST_CASE("h2drumkit: a hard link to an absolute path is refused") {
  Scene s;
  {
    TarWriter tar(s.archive);
    tar.file("Kit/drumkit.xml", kXml);
    tar.hardLink("Kit/a.wav", s.secret.string());
  }
  s.checkRefused("entry 'Kit/a.wav' is a hard link to the absolute path '" + s.secret.string() + "'");
}

TEST_CASE("h2drumkit: a hard link or symlink that leaves the kit folder is refused") {
  Scene s;
  SECTION("a relative hard link") {
    {
      TarWriter tar(s.archive);
      tar.file("Kit/drumkit.xml", kXml);
      tar.hardLink("Kit/a.wav", "../../outside/secret.txt");
    }
    s.checkRefused("entry 'Kit/a.wav' is a hard link to '../../outside/secret.txt', outside the kit folder");
  }
  SECTION("a symlink to an absolute path") {
    {
      TarWriter tar(s.archive);
      tar.file("Kit/drumkit.xml", kXml);
      tar.symlink("Kit/a.wav", "/etc/shadow");
    }
    s.checkRefused("entry 'Kit/a.wav' is a symbolic link to the absolute path '/etc/shadow'");
  }
  SECTION("a symlink climbing out, then a file written through it") {
    {
      TarWriter tar(s.archive);
      tar.file("Kit/drumkit.xml", kXml);
      tar.symlink("Kit/up", "../../../outside");
      tar.file("Kit/up/planted.txt", "planted");
    }
    s.checkRefused("entry 'Kit/up' is a symbolic link to '../../../outside', outside the kit folder");
    CHECK(!fs::exists(s.outside / "planted.txt"));
  }
}

TEST_CASE("h2drumkit: only gzip is read, by libarchive itself; another compression is refused") {
  Scene s;
  {
    spindle::test::ArchiveWriter tar(s.archive, spindle::test::ArchiveWriter::Format::TarXz);
    tar.file("Kit/drumkit.xml", kXml);
    tar.file("Kit/a.wav", "RIFF");
  }
  std::string error;
  CHECK(spindle::hydrogen::unpackArchive(s.archive, s.cache / "kit-1", error).empty());
  CHECK(error.rfind(s.archive.string() + ": ", 0) == 0);
  CHECK(!fs::exists(s.cache / "kit-1"));
}

TEST_CASE("h2drumkit: an archive of 100,000 entries stops at the bound") {
  Scene s;
  {
    TarWriter tar(s.archive);
    tar.file("Kit/drumkit.xml", kXml);
    for (int i = 1; i < 100000; ++i) tar.file("Kit/f" + std::to_string(i), "");
  }
  s.checkRefused("has more than " + std::to_string(spindle::hydrogen::kMaxArchiveEntries) + " entries");
}

TEST_CASE("h2drumkit: a sparse entry of 10 GB is refused by its declared size") {
  Scene s;
  {
    TarWriter tar(s.archive);
    tar.file("Kit/drumkit.xml", kXml);
    tar.sparse("Kit/huge.wav", int64_t{10} * 1000 * 1000 * 1000);
  }
  CHECK(fs::file_size(s.archive) < 100000);
  s.checkRefused("unpacks to more than 2 GiB");
}

TEST_CASE("h2drumkit: an archive with no drumkit.xml is refused and leaves nothing in the cache") {
  Scene scene;
  {
    TarWriter tar(scene.archive);
    tar.file("Kit/a.wav", "RIFF");
    tar.file("Kit/readme.txt", "no kit here");
  }
  scene.checkRefused("no drumkit.xml in the archive");
}

}  // namespace drum_kit_archive_tests
