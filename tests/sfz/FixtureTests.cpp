// Every .sfz of the shared fixtures (sfz-tests, sfizz-testfiles, dim_cabasa), and known
// values from some of them.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "Fixtures.h"
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace fixture_tests {

namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;
namespace fs = std::filesystem;
using spindle::test::countDiagnostics;

namespace {

std::vector<fs::path> sfzFilesUnder(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    if (entry.is_regular_file() && entry.path().extension() == ".sfz") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string sampleOf(const instrument::Instrument& inst, size_t region) {
  return inst.samples.at(static_cast<size_t>(inst.regions.at(region).sampleIndex));
}

struct MissingCount {
  size_t references = 0, files = 0;
};

// Loads every file; checks what holds for all of them.
MissingCount loadAll(const fs::path& folder) {
  MissingCount missing;
  const auto files = sfzFilesUnder(folder);
  REQUIRE_FALSE(files.empty());
  for (const fs::path& file : files) {
    INFO(file.string());
    instrument::Instrument inst;
    REQUIRE_NOTHROW(inst = sfz::loadFile(file));
    CHECK(inst.ok);
    CHECK(inst.regions.size() == inst.origins.size());
    for (const auto& region : inst.regions) {
      REQUIRE(region.sampleIndex >= 0);
      CHECK(static_cast<size_t>(region.sampleIndex) < inst.samples.size());
    }
    for (const auto& d : inst.diagnostics) CHECK_FALSE(d.file.empty());
    const std::set<std::string> unique(inst.missingSamples.begin(), inst.missingSamples.end());
    CHECK(unique.size() == inst.missingSamples.size());
    for (const auto& path : inst.missingSamples) {
      CHECK_FALSE(fs::exists(path));
      CHECK(countDiagnostics(inst, "sample not found: '" + path + "'") == 1);
    }
    missing.references += inst.missingSamples.size();
    missing.files += inst.missingSamples.empty() ? 0 : 1;
  }
  return missing;
}

}  // namespace

TEST_CASE("every sfz-tests file loads; 21 missing samples in 19 files", "[sfz][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfz-tests");
  const MissingCount missing = loadAll(fixtures / "sfz-tests");
  CHECK(missing.references == 21);
  CHECK(missing.files == 19);
}

TEST_CASE("every sfizz-testfiles file loads", "[sfz][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfizz-testfiles");
  loadAll(fixtures / "sfizz-testfiles");
}

TEST_CASE("dim_cabasa: 250 regions, round robin values, parsed in milliseconds", "[sfz][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "dim_cabasa/Dim Cabasa.sfz");
  const auto start = std::chrono::steady_clock::now();
  const auto inst = sfz::loadFile(fixtures / "dim_cabasa" / "Dim Cabasa.sfz");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count() < 200);
  REQUIRE(inst.ok);
  REQUIRE(inst.regions.size() == 250);
  CHECK(inst.missingSamples.empty());
  CHECK(inst.unknownOpcodes.empty());
  CHECK(inst.samples.size() == 250);
  const auto& first = inst.regions[0];
  CHECK(first.seqLength == 5);
  CHECK(first.seqPosition == 1);
  CHECK(first.lorand == 0.0f);
  CHECK(first.hirand == Approx(0.04f));
  CHECK(first.lokey == 69);
  CHECK(first.loopMode == spindle::LoopMode::OneShot);
  CHECK(first.instrumentPolyphony == 1);  // <global> polyphony=1: the whole instrument
  CHECK(sampleOf(inst, 0) == (fixtures / "dim_cabasa" / "Dim Cabasa Samples" / "bw_rr1_01.flac").string());
  for (const auto& r : inst.regions) {
    CHECK(r.seqLength == 5);
    CHECK((r.seqPosition >= 1 && r.seqPosition <= 5));
    CHECK(r.lorand < r.hirand);
    CHECK((r.lokey == 69 || r.lokey == 70));
  }
}

TEST_CASE("sfizz-testfiles: defines, includes, default_path give the expected samples", "[sfz][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfizz-testfiles");
  const fs::path dir = fixtures / "sfizz-testfiles";
  const auto defines = sfz::loadFile(dir / "defines.sfz");
  REQUIRE(defines.regions.size() == 4);
  CHECK(defines.regions[0].lokey == 36);
  CHECK(defines.regions[1].lokey == 38);
  CHECK(defines.regions[2].lokey == 42);
  CHECK(defines.regions[3].volume == -12.0f);
  CHECK(sampleOf(defines, 1) == (dir / "snare.wav").string());
  CHECK(sampleOf(defines, 3) == "*sine");

  const auto defaultPath = sfz::loadFile(dir / "default_path.sfz");
  REQUIRE(defaultPath.regions.size() == 4);
  CHECK(sampleOf(defaultPath, 0) == (dir / "DefaultPath/SubPath1/sample1.wav").string());
  CHECK(sampleOf(defaultPath, 1) == (dir / "DefaultPath/SubPath2/sample2.wav").string());
  CHECK(sampleOf(defaultPath, 2) == (dir / "DefaultPath/SubPath1/sample1.wav").string());
  CHECK(sampleOf(defaultPath, 3) == (dir / "DefaultPath/SubPath2/sample2.wav").string());
  CHECK(defaultPath.missingSamples.empty());
  CHECK(sampleOf(sfz::loadFile(dir / "default_path_generator.sfz"), 0) == "*sine");

  const auto dollar = sfz::loadFile(dir / "dollar_include_main.sfz");
  REQUIRE(dollar.regions.size() == 1);
  CHECK(sampleOf(dollar, 0) == "*sine");

  const auto subdir = sfz::loadFile(dir / "Includes/root_subdir_win.sfz");
  REQUIRE(subdir.regions.size() == 1);
  CHECK(sampleOf(subdir, 0) == (dir / "Includes/dummy_subdir.wav").string());

  const auto loop = sfz::loadFile(dir / "Includes/root_loop.sfz");
  CHECK(countDiagnostics(loop, "#include loop") >= 1);
  CHECK(loop.regions.size() == 2);

  const auto insensitive = sfz::loadFile(dir / "case_insensitive.sfz");
  REQUIRE(insensitive.regions.size() == 4);
  CHECK(insensitive.missingSamples.empty());
  CHECK(sampleOf(insensitive, 1) == (dir / "Regions/dummy.wav").string());

  const auto replacements = sfz::loadFile(dir / "SpecificBugs/wrong-replacements.sfz");
  REQUIRE(replacements.regions.size() == 3);
  CHECK(replacements.regions[0].lokey == 52);
  CHECK(replacements.regions[1].lokey == 57);
  CHECK(sampleOf(replacements, 0) == (dir / "mono_sample.wav").string());

  const auto pizz = sfz::loadFile(dir / "SpecificBugs/MeatBassPizz/Programs/pizz.sfz");
  REQUIRE_FALSE(pizz.regions.empty());
  CHECK(pizz.regions[1].lorand == Approx(0.25f));
  CHECK(pizz.regions[1].hirand == Approx(0.5f));
  CHECK(pizz.regions[0].pitchKeycenter == 21);
  CHECK(pizz.missingSamples.empty());
}

TEST_CASE("sfz-tests: octave offset, unknown opcodes, values with spaces", "[sfz][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfz-tests/sfz2 basic tests/00 - syntax");
  const fs::path syntax = fixtures / "sfz-tests" / "sfz2 basic tests" / "00 - syntax";
  const auto octave = sfz::loadFile(syntax / "01b - control header.sfz");
  REQUIRE(octave.regions.size() == 2);
  CHECK(octave.regions[0].lokey == 60);
  CHECK(octave.regions[1].lokey == 48);
  CHECK(sampleOf(octave, 0) == (fixtures / "sfz-tests/samples/440.wav").string());

  const auto unknown = sfz::loadFile(syntax / "09 - unknown opcode.sfz");
  CHECK(unknown.unknownOpcodes == std::vector<std::string>{"engine_color", "engine_tone"});
  REQUIRE(unknown.regions.size() == 1);

  const auto comments = sfz::loadFile(syntax / "05 - syntax comments.sfz");
  REQUIRE(comments.regions.size() == 1);
  CHECK(comments.regions[0].bendUp == 1200.0f);
  CHECK(comments.regions[0].tune == 100.0f);
  CHECK(comments.regions[0].transpose == -1);
}

TEST_CASE("every .sfz of the fixtures: the opcodes reported not supported are docs/formats.md's short list",
          "[sfz][fixtures][coverage]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures);
  // docs/formats.md, "Not supported, and why", as the fixtures report them (numbers as N).
  const std::set<std::string> allowed = {
      // Per-voice effects.
      "comp_attack", "comp_ratio", "comp_release", "comp_stlink", "comp_threshold", "gate_attack", "gate_onccN",
      "gate_release", "gate_stlink", "gate_threshold", "decim", "egN_bitred", "egN_decim",
      "egN_noiselevel", "egN_noisestep", "egN_noisetone", "lfoN_bitred", "lfoN_decim", "lfoN_drive",
      "lfoN_noiselevel", "lfoN_noisetone",
      // The delay's modes (its three taps play; docs/formats.md says why the modes do not).
      "delay_mode",
      // Generators' settings.
      "noise_filter", "noise_level", "noise_level_onccN", "noise_level_smoothccN", "noise_step", "noise_step_onccN",
      "noise_stereo", "noise_tone", "noise_tone_onccN",
      // No formula or meaning in the reference; not implemented yet.
      "loop_type", "polyphony_stealing", "mdN"};
  std::set<std::string> reported;
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fixtures, fs::directory_options::follow_directory_symlink)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".sfz") continue;
    ++files;
    const instrument::Instrument inst = sfz::loadFile(entry.path());
    for (const instrument::Diagnostic& d : inst.diagnostics) {
      const std::string lead = "opcode '", tail = "' is not supported by Spindle";
      const size_t end = d.message.find(tail);
      if (!d.message.starts_with(lead) || end == std::string::npos) continue;
      const std::string name = d.message.substr(lead.size(), end - lead.size());
      std::string pattern;
      for (size_t i = 0; i < name.size(); ++i) {
        if (std::isdigit(static_cast<unsigned char>(name[i]))) {
          pattern += 'N';
          while (i + 1 < name.size() && std::isdigit(static_cast<unsigned char>(name[i + 1]))) ++i;
        } else {
          pattern += name[i];
        }
      }
      reported.insert(pattern);
    }
  }
  CHECK(files > 500);
  std::string unexpected;
  for (const std::string& name : reported)
    if (allowed.count(name) == 0) unexpected += name + " ";
  INFO("reported but not in docs/formats.md's list: " << unexpected);
  CHECK(unexpected.empty());
  std::string stale;  // listed, but no fixture reports it any more: the list shrinks with the code
  for (const std::string& name : allowed)
    if (reported.count(name) == 0) stale += name + " ";
  INFO("listed but no longer reported: " << stale);
  CHECK(stale.empty());
}

}  // namespace fixture_tests
