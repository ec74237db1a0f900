// The instrument model's own helpers, which every loader uses: the sample table, path
// lookup, curve interpolation and the diagnostics reporter.
#include <filesystem>
#include <string>

#include "TestUtil.h"
#include "catch.h"
#include "instrument/Curves.h"
#include "instrument/Instrument.h"
#include "instrument/Paths.h"
#include "instrument/Reporter.h"
#include "instrument/SampleTable.h"

namespace instrument_tests {

namespace instrument = spindle::instrument;
namespace fs = std::filesystem;
using spindle::test::TempDir;

TEST_CASE("findExisting matches each missing path component ignoring case", "[instrument][paths]") {
  TempDir dir;
  const fs::path file = dir.write("Samples/Piano/C4.wav", "x");
  CHECK(instrument::findExisting(file) == file);
  CHECK(instrument::findExisting(dir.path() / "samples" / "PIANO" / "c4.WAV") == file);
  CHECK_FALSE(instrument::findExisting(dir.path() / "samples" / "piano" / "d4.wav").has_value());
}

TEST_CASE("joinWritten takes backslashes as separators and normalises", "[instrument][paths]") {
  CHECK(instrument::joinWritten("/lib/inst", "Samples\\Piano\\..\\C4.wav") == fs::path("/lib/inst/Samples/C4.wav"));
  CHECK(instrument::joinWritten("/lib/inst", "/abs/x.wav") == fs::path("/abs/x.wav"));
}

TEST_CASE("the sample table enters a file once and lists a missing one once", "[instrument][samples]") {
  TempDir dir;
  dir.write("a.wav", "x");
  instrument::Instrument inst;
  instrument::SampleTable table(inst);
  CHECK(table.add(dir.path(), "a.wav") == 0);
  CHECK(table.add(dir.path(), "A.WAV") == 0);  // the case-insensitive match is the same file
  CHECK(table.add(dir.path(), "gone.wav") == 1);
  CHECK(table.add(dir.path(), "gone.wav") == 1);
  CHECK(table.addResolved("*sine") == 2);
  REQUIRE(inst.samples.size() == 3);
  CHECK(inst.samples[0] == (dir.path() / "a.wav").string());
  REQUIRE(inst.missingSamples.size() == 1);
  CHECK(inst.missingSamples[0] == (dir.path() / "gone.wav").string());
}

TEST_CASE("reversed entries are added once and unplayed forward entries dropped", "[instrument][samples]") {
  instrument::Instrument inst;
  instrument::SampleTable table(inst);
  const int forward = table.addResolved("/lib/a.wav");
  const int kept = table.addResolved("/lib/b.wav");
  const int reversed = table.reversed(forward);
  CHECK(table.reversed(forward) == reversed);
  CHECK(table.reversed(-1) == -1);
  spindle::Region onlyReversed, plain;
  onlyReversed.sampleIndex = reversed;
  plain.sampleIndex = kept;
  inst.regions = {onlyReversed, plain};
  table.dropUnplayedForward();
  // a.wav's forward entry is gone: b.wav is entry 0, the reversed a.wav entry 1.
  REQUIRE(inst.samples == std::vector<std::string>{"/lib/b.wav", "/lib/a.wav"});
  CHECK(inst.reversedSamples == std::vector<int32_t>{1});
  CHECK(inst.regions[0].sampleIndex == 1);
  CHECK(inst.regions[1].sampleIndex == 0);
  CHECK(inst.isReversed(1));
  CHECK_FALSE(inst.isReversed(0));
}

TEST_CASE("curves: given points, straight lines between, 0 and 1 at the ends unless given", "[instrument][curves]") {
  instrument::CurvePoints points;
  points.set(64, 0.5f);
  const auto curve = instrument::interpolateCurve(points);
  CHECK(curve[0] == 0.0f);
  CHECK(curve[32] == Approx(0.25f));
  CHECK(curve[64] == 0.5f);
  CHECK(curve[127] == 1.0f);
  instrument::CurvePoints ends;
  ends.set(0, 1.0f);
  ends.set(127, 0.0f);
  const auto falling = instrument::interpolateCurve(ends);
  CHECK(falling[0] == 1.0f);
  CHECK(falling[127] == 0.0f);
  CHECK(falling[63] > falling[64]);
}

TEST_CASE("the reporter appends diagnostics in order and knows what it said once", "[instrument][diagnostics]") {
  std::vector<instrument::Diagnostic> out;
  instrument::Reporter report(out);
  report.warning("a.sfz", 3, "odd");
  report.error("a.sfz", 0, "bad");
  REQUIRE(out.size() == 2);
  CHECK(out[0].severity == instrument::Diagnostic::Severity::Warning);
  CHECK(out[0].line == 3);
  CHECK(out[1].severity == instrument::Diagnostic::Severity::Error);
  CHECK(out[1].message == "bad");
  CHECK(report.firstTime("x"));
  CHECK_FALSE(report.firstTime("x"));
}

}  // namespace instrument_tests
