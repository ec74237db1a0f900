// .multisample zips and folders through formats::loadInstrument: recognised by content
// (the zip's multisample.xml, the folder's), unpacked into the cache by the guarded
// unpacking; a zip whose entry or link leaves its folder is refused and leaves nothing
// behind; a multisample with no playable zone is an error like any silent load.
#include <cstdlib>
#include <set>
#include <string>

#include "TestUtil.h"
#include "ArchiveWriter.h"
#include "catch.h"
#include "formats/InstrumentFile.h"
#include "multisample/Multisample.h"

namespace multisample_archive_tests {

namespace fs = std::filesystem;
using spindle::formats::Format;
using spindle::test::ArchiveWriter;

namespace {

const char* kXml = R"(<multisample name="Z"><sample file="a.wav"><key low="0" high="127"/></sample></multisample>)";

// A scratch folder that is also the cache ($XDG_CACHE_HOME) while it lives.
struct Scene {
  spindle::test::TempDir dir;
  fs::path archive = dir.path() / "Keys.multisample";
  fs::path outside = dir.path() / "outside";
  std::string previousCache;
  bool hadCache = false;

  Scene() {
    if (const char* c = std::getenv("XDG_CACHE_HOME")) previousCache = c, hadCache = true;
    ::setenv("XDG_CACHE_HOME", (dir.path() / "cache").c_str(), 1);
    dir.write("outside/keep.txt", "keep");
  }
  ~Scene() {
    if (hadCache) ::setenv("XDG_CACHE_HOME", previousCache.c_str(), 1);
    else ::unsetenv("XDG_CACHE_HOME");
  }
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  // Every path under the scratch folder but the cache's.
  std::set<std::string> tree() const {
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
      const std::string relative = fs::relative(e.path(), dir.path()).string();
      if (!relative.starts_with("cache")) out.insert(relative);
    }
    return out;
  }

  // Loads the archive; checks it was refused with `reason`, naming it, and left nothing.
  void checkRefused(const std::string& reason) const {
    const std::set<std::string> before = tree();
    const auto in = spindle::formats::loadInstrument(archive);
    CHECK(!in.ok);
    REQUIRE(in.diagnostics.size() == 1);
    CHECK(in.diagnostics[0].message == archive.string() + ": " + reason);
    CHECK(tree() == before);
    CHECK(fs::is_empty(spindle::formats::archiveCache("multisamples")));
  }
};

}  // namespace

TEST_CASE("multisample: a zip holding multisample.xml is recognised, unpacked into the cache and loaded") {
  Scene s;
  {
    ArchiveWriter zip(s.archive);
    zip.file("multisample.xml", kXml);
    zip.file("a.wav", "RIFF");
  }
  CHECK(spindle::formats::detect(s.archive) == Format::MultisampleArchive);
  const auto in = spindle::formats::loadInstrument(s.archive);
  INFO((in.diagnostics.empty() ? std::string() : in.diagnostics[0].message));
  REQUIRE(in.ok);
  CHECK(in.name == "Keys");
  REQUIRE(in.regions.size() == 1);
  REQUIRE(in.samples.size() == 1);
  const fs::path sample = in.samples[0];
  CHECK(sample.filename() == "a.wav");
  CHECK(sample.parent_path().parent_path() == s.dir.path() / "cache" / "spindle" / "multisamples");
}

TEST_CASE("multisample: folders, the XML itself and other zips are told apart by content") {
  Scene s;
  s.dir.write("Folder/multisample.xml", kXml);
  s.dir.write("Named.multisample/readme.txt", "");
  s.dir.write("Folder/a.wav", "");
  CHECK(spindle::formats::detect(s.dir.path() / "Folder") == Format::Multisample);
  CHECK(spindle::formats::detect(s.dir.path() / "Folder" / "multisample.xml") == Format::Multisample);
  CHECK(spindle::formats::detect(s.dir.path() / "Named.multisample") == Format::Multisample);
  CHECK(spindle::formats::loadInstrument(s.dir.path() / "Folder").ok);
  const auto unnamed = spindle::formats::loadInstrument(s.dir.path() / "Named.multisample");
  CHECK(!unnamed.ok);
  {
    ArchiveWriter zip(s.archive);
    zip.file("Sub/multisample.xml", kXml);  // not at the root: not a multisample
  }
  CHECK(spindle::formats::detect(s.archive) == Format::Unknown);
  CHECK(!spindle::formats::loadInstrument(s.archive).ok);
}

TEST_CASE("multisample: a zip entry that leaves the instrument's folder is refused") {
  Scene s;
  SECTION("a relative path climbing out") {
    {
      ArchiveWriter zip(s.archive);
      zip.file("multisample.xml", kXml);
      zip.file("../../outside/planted.wav", "RIFF");
    }
    s.checkRefused("entry '../../outside/planted.wav' lies outside the instrument's folder");
  }
  SECTION("a symlink climbing out, then a file written through it") {
    {
      ArchiveWriter zip(s.archive);
      zip.file("multisample.xml", kXml);
      zip.symlink("up", "../../../outside");
      zip.file("up/planted.wav", "RIFF");
    }
    s.checkRefused("entry 'up' is a symbolic link to '../../../outside', outside the instrument's folder");
  }
  SECTION("an absolute path") {
    {
      ArchiveWriter zip(s.archive);
      zip.file("multisample.xml", kXml);
      zip.file((s.outside / "planted.wav").string(), "RIFF");
    }
    s.checkRefused("entry '" + (s.outside / "planted.wav").string() + "' has an absolute path");
  }
  CHECK(!fs::exists(s.outside / "planted.wav"));
}

TEST_CASE("multisample: no playable zone is an error naming the file") {
  Scene s;
  s.dir.write("Empty/multisample.xml", R"(<multisample name="E">
  <sample file="gone.wav"><key low="0" high="127"/></sample>
</multisample>
)");
  const auto in = spindle::formats::loadInstrument(s.dir.path() / "Empty");
  CHECK(!in.ok);
  REQUIRE(in.diagnostics.size() == 2);
  CHECK((in.diagnostics[0].line == 2 && in.diagnostics[0].severity == spindle::instrument::Diagnostic::Severity::Warning));
  CHECK(in.diagnostics[1].severity == spindle::instrument::Diagnostic::Severity::Error);
  CHECK(in.diagnostics[1].message == "no playable region: nothing in this instrument would sound");
}

}  // namespace multisample_archive_tests
