// multisample.xml read into regions: a file written here for each mapping rule, the
// warnings for what is not played (each naming its element's line), a malformed file's
// error line, and zones whose sample is missing.
#include <string>

#include "TestUtil.h"
#include "catch.h"
#include "multisample/Multisample.h"

namespace multisample_tests {

namespace fs = std::filesystem;
namespace ms = spindle::multisample;
using spindle::LoopMode;
using spindle::Region;
using spindle::instrument::Diagnostic;
using spindle::test::regionsPlaying;

namespace {

// Line numbers matter: the tests name them.
const char* kMapping = R"(<?xml version="1.0" encoding="UTF-8"?>
<multisample name="Test Keys">
  <generator>Spindle tests</generator>
  <category>Keys</category>
  <group name="Soft" color="d92e24"/>
  <group name="Loud"/>
  <sample file="a.wav" gain="-3.5" group="0" sample-start="100" sample-stop="9000" zone-logic="always-play">
    <key low="36" high="59" root="48" track="0.5" tune="0.25" low-fade="4" high-fade="6"/>
    <velocity low="1" high="90" high-fade="10"/>
    <select/>
    <loop mode="loop" start="1000" stop="5800" fade="0.1"/>
  </sample>
  <sample file="b.wav" group="1">
    <key low="36" high="59"/>
    <velocity low="91" high="127" low-fade="5"/>
    <loop mode="off" start="0" stop="100"/>
  </sample>
  <sample file="rr1.wav" zone-logic="round-robin"><key low="70" high="70" root="70"/></sample>
  <sample file="rr2.wav" zone-logic="round-robin"><key low="70" high="70" root="70"/></sample>
  <sample file="back.wav" reverse="true"><key low="80" high="80"/></sample>
</multisample>
)";

// Every sample file named above, empty (the loader only checks they exist).
void writeSamples(const spindle::test::TempDir& dir) {
  for (const char* f : {"a.wav", "b.wav", "rr1.wav", "rr2.wav", "back.wav"}) dir.write(f, "");
}

}  // namespace

TEST_CASE("multisample: keys, velocities, fades, tuning, gain, positions and loops map to their regions") {
  spindle::test::TempDir dir;
  writeSamples(dir);
  const auto in = ms::loadMultisample(dir.write("multisample.xml", kMapping));
  REQUIRE(in.ok);
  CHECK(in.diagnostics.empty());
  CHECK(in.name == "Test Keys");
  REQUIRE(in.regions.size() == 5);
  const auto soft = regionsPlaying(in, 50, 40);
  REQUIRE(soft.size() == 1);
  const Region& a = *soft[0].second;
  CHECK(soft[0].first == "a.wav");
  CHECK((a.lokey == 36 && a.hikey == 59 && a.pitchKeycenter == 48 && a.lovel == 1 && a.hivel == 90));
  CHECK((a.xfinLokey == 36 && a.xfinHikey == 40 && a.xfoutLokey == 53 && a.xfoutHikey == 59));
  CHECK((a.xfinLovel == 0 && a.xfinHivel == 0 && a.xfoutLovel == 80 && a.xfoutHivel == 90));
  CHECK(a.pitchKeytrack == Approx(50.0f));
  CHECK(a.tune == Approx(25.0f));
  CHECK(a.volume == Approx(-3.5f));
  CHECK((a.offset == 100 && a.end == 8999));  // sample-stop is exclusive
  CHECK((a.loopModeSet && a.loopMode == LoopMode::LoopContinuous && a.loopStart == 1000 && a.loopEnd == 5799));
  CHECK(a.loopCrossfadeFrames == 480);  // 0.1 x (5800 - 1000)
  CHECK(in.origins[0].label == "Soft");
  CHECK(in.origins[0].line == 7);
  const auto loud = regionsPlaying(in, 50, 100);
  REQUIRE(loud.size() == 1);
  const Region& b = *loud[0].second;
  CHECK((loud[0].first == "b.wav" && b.pitchKeycenter == 60 && b.pitchKeytrack == Approx(100.0f)));
  CHECK((b.xfinLovel == 91 && b.xfinHivel == 96 && b.xfoutLovel == 127));
  CHECK((b.loopModeSet && b.loopMode == LoopMode::NoLoop && b.offset == 0 && b.end == -1));
  CHECK(in.origins[1].label == "Loud");
}

TEST_CASE("multisample: round-robin zones take turns, a reversed zone plays its file backwards") {
  spindle::test::TempDir dir;
  writeSamples(dir);
  const auto in = ms::loadMultisample(dir.write("multisample.xml", kMapping));
  const auto rr = regionsPlaying(in, 70, 100);
  REQUIRE(rr.size() == 2);
  CHECK((rr[0].first == "rr1.wav" && rr[0].second->seqLength == 2 && rr[0].second->seqPosition == 1));
  CHECK((rr[1].first == "rr2.wav" && rr[1].second->seqLength == 2 && rr[1].second->seqPosition == 2));
  CHECK(regionsPlaying(in, 50, 40)[0].second->seqLength == 1);  // always-play
  const auto back = regionsPlaying(in, 80, 100);
  REQUIRE(back.size() == 1);
  CHECK(back[0].second->reverse);
  CHECK(in.isReversed(static_cast<size_t>(back[0].second->sampleIndex)));
  CHECK(in.samples.size() == 5);  // the reversed file's forward entry is not kept
}

TEST_CASE("multisample: what is not played is a warning naming the element and its line") {
  spindle::test::TempDir dir;
  dir.write("a.wav", "");
  const auto in = ms::loadMultisampleText(R"(<multisample name="W" mood="blue">
  <sample file="a.wav" parameter-2="0.5" colour="red">
    <key low="10" high="20" curve="log"/>
    <select low="20" high="40"/>
    <loop mode="ping-pong" start="10.5" stop="300"/>
    <envelope attack="1"/>
  </sample>
  <effects/>
</multisample>
)", dir.path() / "multisample.xml");
  REQUIRE(in.ok);
  REQUIRE(in.regions.size() == 1);
  const std::pair<int, std::string> expected[] = {
      {1, "<multisample> attribute 'mood' is not supported (ignored)"},
      {2, "<sample> attribute 'colour' is not supported (ignored)"},
      {2, "<sample> parameter-2 is not played (Spindle has no P1-P3 modulation sources)"},
      {3, "<key> attribute 'curve' is not supported (ignored)"},
      {4, "<select> ranges are not played (Spindle has no select source): the zone always plays"},
      {5, "<loop> ping-pong loops play forwards (Spindle has no alternating loop)"},
      {5, "<loop> start=\"10.5\": fractional positions are rounded to whole frames (first here)"},
      {6, "element <envelope> in <sample> is not supported (ignored)"},
      {8, "element <effects> is not supported (ignored)"}};
  REQUIRE(in.diagnostics.size() == std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    INFO(i);
    CHECK(in.diagnostics[i].severity == Diagnostic::Severity::Warning);
    CHECK(in.diagnostics[i].line == expected[i].first);
    CHECK(in.diagnostics[i].message == expected[i].second);
  }
  const Region& r = in.regions[0];
  CHECK((r.loopMode == LoopMode::LoopContinuous && r.loopStart == 11 && r.loopEnd == 299));
}

TEST_CASE("multisample: samples in <layer>s (Bitwig Studio's layout) load at their keys and velocities, labelled by layer") {
  spindle::test::TempDir dir;
  for (const char* f : {"soft.wav", "loud.wav", "hi.wav", "grouped.wav"}) dir.write(f, "");
  const auto in = ms::loadMultisample(dir.write("multisample.xml", R"(<multisample name="Layered">
  <generator>Bitwig Studio</generator>
  <group name="Extra"/>
  <layer name="Soft">
    <sample file="soft.wav" gain="0.000" sample-start="0.000" sample-stop="100.000" tune="0.5" zone-logic="always-play">
      <key high="59" low="0" root="48" track="true" tune="0.25"/>
      <velocity high="63"/>
      <loop mode="off" start="0.000" stop="100.000"/>
    </sample>
    <sample file="hi.wav" mood="x"><key high="127" low="60" root="72" track="false"/><velocity low="1" high="63"/></sample>
  </layer>
  <layer name="Loud" color="ff0000">
    <sample file="loud.wav" mood="y"><key low="0" high="127" root="60"/><velocity low="64" high="127"/></sample>
    <sample file="grouped.wav" group="0"><key low="0" high="127"/><velocity low="64" high="127"/></sample>
    <envelope/><envelope/>
  </layer>
</multisample>
)"));
  REQUIRE(in.ok);
  REQUIRE(in.regions.size() == 4);
  const auto soft = regionsPlaying(in, 40, 50);
  REQUIRE(soft.size() == 1);
  CHECK((soft[0].first == "soft.wav" && soft[0].second->lovel == 1 && soft[0].second->hivel == 63));
  CHECK((soft[0].second->pitchKeycenter == 48 && soft[0].second->pitchKeytrack == Approx(100.0f)));
  CHECK(soft[0].second->tune == Approx(75.0f));  // the sample's half semitone and its key's quarter
  const auto high = regionsPlaying(in, 70, 50);
  REQUIRE(high.size() == 1);
  CHECK((high[0].first == "hi.wav" && high[0].second->pitchKeytrack == 0.0f));
  const auto loud = regionsPlaying(in, 40, 100);
  REQUIRE(loud.size() == 2);
  CHECK((loud[0].first == "loud.wav" && loud[1].first == "grouped.wav"));
  const std::string labels[] = {"Soft", "Soft", "Loud", "Extra"};
  for (size_t i = 0; i < 4; ++i) CHECK(in.origins[i].label == labels[i]);
  // What is not read is named once, at its first line: two samples' 'mood', two <envelope>s.
  const std::pair<int, std::string> expected[] = {
      {10, "<sample> attribute 'mood' is not supported (ignored)"},
      {15, "element <envelope> in <layer> is not supported (ignored)"}};
  REQUIRE(in.diagnostics.size() == std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    CHECK(in.diagnostics[i].line == expected[i].first);
    CHECK(in.diagnostics[i].message == expected[i].second);
  }
}

TEST_CASE("multisample: malformed XML is an error naming the line where it breaks") {
  spindle::test::TempDir dir;
  const auto bad = ms::loadMultisample(dir.write("multisample.xml", "<multisample name=\"M\">\n  <sample file=\"a.wav\">\n"
                                                                    "    <key low=\"1\" high=\"2\"\n  </sample>\n</multisample>\n"));
  CHECK(!bad.ok);
  REQUIRE(bad.diagnostics.size() == 1);
  CHECK(bad.diagnostics[0].severity == Diagnostic::Severity::Error);
  CHECK(bad.diagnostics[0].message.find("not readable as XML") != std::string::npos);
  CHECK(bad.diagnostics[0].line == 4);  // `<key ...` runs into `</sample>`
  CHECK(bad.regions.empty());
  const auto other = ms::loadMultisample(dir.write("other.xml", "<DecentSampler/>"));
  CHECK(!other.ok);
  REQUIRE(other.diagnostics.size() == 1);
  CHECK(other.diagnostics[0].message == "not a multisample (no <multisample> root)");
}

TEST_CASE("multisample: a zone whose sample is missing is skipped with a warning, the others play") {
  spindle::test::TempDir dir;
  dir.write("Piano.multisample/here.wav", "");
  dir.write("Piano.multisample/multisample.xml", R"(<multisample name="P">
  <sample file="here.wav"><key low="0" high="59"/></sample>
  <sample file="gone.wav"><key low="60" high="127"/></sample>
  <sample><key low="60" high="127"/></sample>
</multisample>
)");
  const auto in = ms::loadMultisample(dir.path() / "Piano.multisample");
  REQUIRE(in.ok);
  REQUIRE(in.regions.size() == 1);
  CHECK(regionsPlaying(in, 40, 100).size() == 1);
  CHECK(regionsPlaying(in, 70, 100).empty());
  CHECK(in.missingSamples.empty());
  CHECK(in.samples.size() == 1);
  REQUIRE(in.diagnostics.size() == 2);
  CHECK((in.diagnostics[0].line == 3 && in.diagnostics[0].message == "<sample> file 'gone.wav' is missing: the zone is skipped"));
  CHECK((in.diagnostics[1].line == 4 && in.diagnostics[1].message == "<sample> has no file: the zone is skipped"));
}

}  // namespace multisample_tests
