// The Loader over every .sfz of the shared fixtures, and on instruments written here.
#include <algorithm>
#include <fstream>
#include <set>

#include "Fixtures.h"
#include "session/Loader.h"
#include "catch.h"
#include "sfz/Parser.h"
#include "stream/TestAudioFiles.h"

namespace loader_tests {

using spindle::session::LoadReport;
using spindle::session::Loader;

namespace {

std::vector<std::filesystem::path> sfzFilesUnder(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".sfz") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The report's missing files are unique, really absent, and cover the parser's list.
void checkMissingOnce(const LoadReport& report, const std::vector<std::string>& parserMissing) {
  const std::set<std::string> unique(report.missingFiles.begin(), report.missingFiles.end());
  CHECK(unique.size() == report.missingFiles.size());
  for (const std::string& file : report.missingFiles) CHECK_FALSE(std::filesystem::exists(file));
  for (const std::string& file : parserMissing) CHECK(unique.count(file) == 1);
}

}  // namespace

TEST_CASE("every fixture .sfz loads through the Loader; each missing sample is reported once", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfz-tests", "sfizz-testfiles");
  Loader loader;  // one pool for all: later instruments still see earlier failures
  std::size_t files = 0, missingInSfzTests = 0, silent = 0;
  for (const char* folder : {"sfz-tests", "sfizz-testfiles"}) {
    for (const auto& path : sfzFilesUnder(fixtures / folder)) {
      INFO(path.string());
      const auto instrument = spindle::sfz::loadFile(path);  // what the parser alone says
      const Loader::Result result = loader.load(path);
      ++files;
      if (!result.report.ok) continue;  // e.g. include loops: the parser says why
      checkMissingOnce(result.report, instrument.missingSamples);
      if (std::string(folder) == "sfz-tests") missingInSfzTests += result.report.missingFiles.size();
      if (!result.program) {  // none of its samples is in the fixtures: an error, never a silent load
        CHECK((result.report.samples > 0 && result.report.samplesLoaded == 0));
        CHECK(result.report.diagnostics.back().message.find("could be loaded: nothing would sound") != std::string::npos);
        ++silent;
        continue;
      }
      CHECK(result.report.regions == result.program->regions.size());
      CHECK(result.report.samplesLoaded + result.report.missingFiles.size() + result.report.sampleErrors.size() >=
            result.report.samples);
      for (std::size_t i = 0; i < instrument.samples.size(); ++i) {
        const bool missing = std::count(result.report.missingFiles.begin(), result.report.missingFiles.end(),
                                        instrument.samples[i]) == 1;
        CHECK((result.program->samples[i] == nullptr) == (missing || !result.report.sampleErrors.empty()));
      }
    }
  }
  CHECK(files == 578);
  CHECK(silent == 21);  // the files that name only samples never shipped: refused, not silent
  CHECK(missingInSfzTests == 21);  // fixtures/README.md: 21 references to samples never shipped
}

TEST_CASE("a Loader report lists samples, missing files, unreadable files and unknown opcodes") {
  const auto dir = spindle::test::scratchDir("loader-report");
  spindle::test::writeWavInt32(dir / "a.wav", std::vector<int32_t>(100, 1 << 20), 44100, 0, 99);
  std::ofstream(dir / "junk.wav") << "not audio";
  std::ofstream(dir / "x.sfz") << "<region> sample=a.wav key=60 frobnicate=3\n"
                                  "<region> sample=a.wav key=61\n"
                                  "<region> sample=gone.wav key=62\n"
                                  "<region> sample=gone.wav key=63\n"
                                  "<region> sample=junk.wav key=64\n"
                                  "<region> sample=*sine key=65\n";
  Loader loader;
  const Loader::Result result = loader.load(dir / "x.sfz");
  REQUIRE(result.program);
  const LoadReport& report = result.report;
  CHECK(report.ok);
  CHECK(report.regions == 6);
  CHECK(report.samples == 4);
  CHECK(report.samplesLoaded == 2);
  REQUIRE(report.missingFiles.size() == 1);
  CHECK(std::filesystem::path(report.missingFiles[0]).filename() == "gone.wav");
  REQUIRE(report.sampleErrors.size() == 1);
  CHECK(report.sampleErrors[0].file == (dir / "junk.wav").string());
  CHECK(report.sampleErrors[0].message.find((dir / "junk.wav").string()) != std::string::npos);
  CHECK(std::count(report.unknownOpcodes.begin(), report.unknownOpcodes.end(), "frobnicate") == 1);
  CHECK(result.program->samples.size() == 4);
  CHECK(result.program->name == "x");

  // A second instrument sharing a.wav gets the very same SampleData from the pool.
  std::ofstream(dir / "y.sfz") << "<region> sample=a.wav\n";
  const Loader::Result second = loader.load(dir / "y.sfz");
  REQUIRE(second.program);
  CHECK(second.program->samples[0] == result.program->samples[static_cast<std::size_t>(result.program->regions[0].sampleIndex)]);
  CHECK(loader.pool().size() == 4);
}

TEST_CASE("diagnostics print as file:line: severity: message") {
  const spindle::instrument::Diagnostic error{spindle::instrument::Diagnostic::Severity::Error, "/x/a.sfz", 12, "bad header"};
  CHECK(spindle::session::formatDiagnostic(error) == "/x/a.sfz:12: error: bad header");
  const spindle::instrument::Diagnostic whole{spindle::instrument::Diagnostic::Severity::Warning, "/x/a.sfz", 0, "empty"};
  CHECK(spindle::session::formatDiagnostic(whole) == "/x/a.sfz: warning: empty");
}

}  // namespace loader_tests
