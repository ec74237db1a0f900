// DecentSampler presets: the fixture presets against their XML, a preset written here for
// each mapping rule, note names, bundles and refusals.
#include <cmath>
#include <string>
#include <vector>

#include "Fixtures.h"
#include "TestUtil.h"
#include "catch.h"
#include "dspreset/DecentSampler.h"

namespace decent_sampler_tests {

namespace fs = std::filesystem;
namespace ds = spindle::dspreset;
using spindle::Region;
using spindle::test::regionsPlaying;

namespace {

const char* kPreset = R"(<?xml version="1.0" encoding="UTF-8"?>
<DecentSampler minVersion="1.0.0">
  <effects><effect type="reverb" wetLevel="0.5"/></effects>
  <groups attack="0.01" decay="0.5" sustain="0.5" release="2" volume="-6dB" ampVelTrack="0.5" globalTuning="1">
    <group volume="0.5" groupTuning="-0.5" pan="-20">
      <sample path="a.wav" loNote="C3" hiNote="D#3" rootNote="C3" loVel="1" hiVel="63" volume="3dB" tuning="0.25"
              start="10" end="900" loopEnabled="true" loopStart="100" loopEnd="800" release="0.5"/>
      <sample path="b.wav" loNote="60" hiNote="63" rootNote="62" loVel="64" hiVel="127" pitchKeyTrack="0.5"/>
    </group>
    <group seqMode="round_robin" tags="hat" attack="0">
      <sample path="rr1.wav" loNote="Db4" hiNote="Db4" seqPosition="1"/>
      <sample path="rr2.wav" loNote="73" hiNote="73" seqPosition="2"/>
      <sample path="rr3.wav" loNote="73" hiNote="73" seqPosition="3" trigger="release"/>
    </group>
    <group seqMode="random" silencedByTags="hat">
      <sample path="x.wav" loNote="80" hiNote="80" seqPosition="1"/>
      <sample path="y.wav" loNote="80" hiNote="80" seqPosition="2"/>
    </group>
    <group enabled="false"><sample path="off.wav" loNote="90" hiNote="90"/></group>
  </groups>
</DecentSampler>
)";

}  // namespace

TEST_CASE("DecentSampler note names: C3 = 60, sharps, flats, numbers, nonsense") {
  CHECK(ds::noteNumber("C3") == 60);
  CHECK(ds::noteNumber("C#3") == 61);
  CHECK(ds::noteNumber("Db4") == 73);
  CHECK(ds::noteNumber("A-2") == 9);
  CHECK(ds::noteNumber("C-2") == 0);
  CHECK(ds::noteNumber("G8") == 127);
  CHECK(ds::noteNumber("108") == 108);
  CHECK(ds::noteNumber("128") == -1);
  CHECK(ds::noteNumber("H3") == -1);
  CHECK(ds::noteNumber("C") == -1);
}

TEST_CASE("DecentSampler preset: inheritance, volume and tuning sums, loops, envelope, ranges") {
  spindle::test::TempDir dir;
  dir.write("p.dspreset", kPreset);
  dir.write("a.wav", "");
  const auto in = ds::loadPreset(dir.path() / "p.dspreset");
  REQUIRE(in.ok);
  const auto soft = regionsPlaying(in, 62, 40), loud = regionsPlaying(in, 62, 100);
  REQUIRE((soft.size() == 1 && loud.size() == 1));
  const Region& a = *soft[0].second;
  CHECK(soft[0].first == "a.wav");
  CHECK((a.lokey == 60 && a.hikey == 63 && a.pitchKeycenter == 60 && a.lovel == 1 && a.hivel == 63));
  CHECK(a.volume == Approx(-6.0 + 20.0 * std::log10(0.5) + 3.0).margin(1e-4));
  CHECK(a.tune == Approx(75.0f));  // 1 - 0.5 + 0.25 semitones
  CHECK(a.pan == Approx(-20.0f));
  CHECK((a.offset == 10 && a.end == 900));
  CHECK((a.loopMode == spindle::LoopMode::LoopContinuous && a.loopStart == 100 && a.loopEnd == 800));
  CHECK(a.ampeg.attack == Approx(0.01f));
  CHECK(a.ampeg.sustain == Approx(50.0f));
  CHECK(a.ampeg.release == Approx(0.5f));  // the sample's own beats the <groups> value
  CHECK(a.ampVeltrack == Approx(50.0f));
  const Region& b = *loud[0].second;
  CHECK((loud[0].first == "b.wav" && b.pitchKeycenter == 62 && b.pitchKeytrack == Approx(50.0f)));
  CHECK(b.ampeg.release == Approx(2.0f));
  CHECK(b.loopMode == spindle::LoopMode::NoLoop);
  CHECK(regionsPlaying(in, 90, 100).empty());  // a disabled group
}

TEST_CASE("DecentSampler preset: round robin, random, release triggers, tags as choke groups, reports") {
  spindle::test::TempDir dir;
  dir.write("p.dspreset", kPreset);
  const auto in = ds::loadPreset(dir.path() / "p.dspreset");
  const auto rr = regionsPlaying(in, 73, 100);
  REQUIRE(rr.size() == 3);
  for (size_t i = 0; i < 3; ++i) CHECK((rr[i].second->seqLength == 3 && rr[i].second->seqPosition == i + 1));
  CHECK(rr[2].second->trigger == spindle::Trigger::Release);
  CHECK(rr[0].second->group == 1);
  const auto rnd = regionsPlaying(in, 80, 100);
  REQUIRE(rnd.size() == 2);
  CHECK((rnd[0].second->lorand == 0.0f && rnd[0].second->hirand == 0.5f && rnd[1].second->lorand == 0.5f));
  CHECK(rnd[0].second->offBy == 1);  // silenced by the "hat" group
  CHECK(in.missingSamples.size() == 7);
  REQUIRE(in.buses.effects.size() == 1);  // <effects>: the reverb plays on the main bus
  CHECK(in.buses.effects[0].type == spindle::BusEffectType::Reverb);
  CHECK(spindle::test::countDiagnostics(in, "not played") == 0);
}

TEST_CASE("Every DecentSampler fixture preset loads; Example 6A maps as its XML says", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "decentsampler/example-006-working-with-note-sequences");
  int presets = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fixtures / "decentsampler")) {
    if (entry.path().extension() != ".dspreset") continue;
    ++presets;
    const auto in = ds::loadPreset(entry.path());
    INFO(entry.path());
    CHECK(in.ok);
    CHECK(!in.regions.empty());
  }
  CHECK(presets == 5);
  const fs::path folder = fixtures / "decentsampler" / "example-006-working-with-note-sequences";
  const auto in = ds::loadPreset(folder / "Example 6A - Triggering Sequences Using MIDI.dspreset");
  CHECK(in.missingSamples.empty());
  const auto c0 = regionsPlaying(in, 20, 100);
  REQUIRE(c0.size() == 1);
  const Region& r = *c0[0].second;
  CHECK(c0[0].first == "PolyBrute Triangle Wave-C0-V127-WASV.wav");
  CHECK((r.lokey == 12 && r.hikey == 24 && r.pitchKeycenter == 24));
  CHECK(r.volume == Approx(-1.26672f));
  CHECK((r.end == 148089 && r.loopStart == 4182 && r.loopEnd == 76923));
  CHECK((r.ampeg.decay == Approx(1.0f) && r.ampeg.sustain == 0.0f));
  // The Attack and Release knobs (instrument level, 0.01 and 1) apply as the preset loads,
  // in place of <groups attack="0.0" release="1.75...">.
  CHECK((r.ampeg.attack == Approx(0.01f) && r.ampeg.release == Approx(1.0f)));
  CHECK(r.ampVeltrack == Approx(30.0f));
}

TEST_CASE("DecentSampler: a bundle folder loads its preset; broken files are clear errors") {
  spindle::test::TempDir dir;
  dir.write("Piano.dsbundle/Piano.dspreset", kPreset);
  const auto bundle = ds::loadPreset(dir.path() / "Piano.dsbundle");
  CHECK(bundle.ok);
  CHECK(bundle.regions.size() == 7);
  dir.write("bad.dspreset", "<DecentSampler><groups>");
  const auto bad = ds::loadPreset(dir.path() / "bad.dspreset");
  CHECK(!bad.ok);
  REQUIRE(bad.diagnostics.size() == 1);
  CHECK(bad.diagnostics[0].message.find("not readable as XML") != std::string::npos);
  fs::create_directories(dir.path() / "Empty.dsbundle");
  CHECK(!ds::loadPreset(dir.path() / "Empty.dsbundle").ok);
}

TEST_CASE("DecentSampler: closing tags that do not match close the element opened last, with a warning per line") {
  spindle::test::TempDir dir;
  dir.write("Mismatch.dspreset", R"(<?xml version="1.0" encoding="UTF-8"?>
<DecentSampler minVersion="1.0.0">
  <!-- a comment with </groups> inside closes nothing -->
  <groups volume="-6dB">
    <group name="a > b" tags="x">
      <sample path="low.wav" loNote="36" hiNote="59" rootNote="48"/>
      <sample path="high.wav" loNote="60" hiNote="84" rootNote="72"></sampel>
    </Group>
    <group>
      <sample path="top.wav" loNote="85" hiNote="96" rootNote="90" volume="-3dB"/>
    </groups>
  </group>
</DecentSampler>
)");
  for (const char* f : {"low.wav", "high.wav", "top.wav"}) dir.write(f, "");
  const auto in = ds::loadPreset(dir.path() / "Mismatch.dspreset");
  REQUIRE(in.ok);
  REQUIRE(in.diagnostics.size() == 4);
  const int lines[] = {7, 8, 11, 12};
  const char* messages[] = {"closing tag </sampel> closes <sample> (line 7), as DecentSampler reads it",
                            "closing tag </Group> closes <group> (line 5), as DecentSampler reads it",
                            "closing tag </groups> closes <group> (line 9), as DecentSampler reads it",
                            "closing tag </group> closes <groups> (line 4), as DecentSampler reads it"};
  for (size_t i = 0; i < 4; ++i) {
    CHECK(in.diagnostics[i].severity == spindle::instrument::Diagnostic::Severity::Warning);
    CHECK(in.diagnostics[i].line == lines[i]);
    CHECK(in.diagnostics[i].message == messages[i]);
  }
  REQUIRE(in.regions.size() == 3);
  const auto low = regionsPlaying(in, 40, 100), high = regionsPlaying(in, 70, 100), top = regionsPlaying(in, 90, 100);
  REQUIRE((low.size() == 1 && high.size() == 1 && top.size() == 1));
  CHECK((low[0].first == "low.wav" && low[0].second->pitchKeycenter == 48));
  CHECK((high[0].first == "high.wav" && high[0].second->lokey == 60 && high[0].second->hikey == 84));
  CHECK(high[0].second->volume == Approx(-6.0f));
  CHECK(top[0].second->volume == Approx(-9.0f));  // <groups> -6 dB + the sample's -3 dB: still inside <groups>
}

TEST_CASE("DecentSampler: a stray closing tag before </DecentSampler> closes the root; what follows is ignored, with a warning per line") {
  spindle::test::TempDir dir;
  dir.write("Stray.dspreset", R"(<DecentSampler>
  <groups>
    <group><sample path="a.wav" loNote="60" hiNote="62" rootNote="61"/></group>
  </groups>
  <midi></midi>
</midi>
</DecentSampler>
<!-- a comment after the root -->
<effects><effect type="gain" level="-60"/></effects>
)");
  dir.write("a.wav", "");
  const auto in = ds::loadPreset(dir.path() / "Stray.dspreset");
  REQUIRE(in.ok);
  REQUIRE(in.diagnostics.size() == 2);
  for (const auto& d : in.diagnostics) CHECK(d.severity == spindle::instrument::Diagnostic::Severity::Warning);
  CHECK(in.diagnostics[0].line == 6);
  CHECK(in.diagnostics[0].message == "closing tag </midi> closes <DecentSampler> (line 1), as DecentSampler reads it");
  CHECK(in.diagnostics[1].line == 7);
  CHECK(in.diagnostics[1].message ==
        "</DecentSampler> (through line 9) follows the root <DecentSampler>, closed on line 6, and is ignored, as DecentSampler reads it");
  const auto played = regionsPlaying(in, 61, 100);
  REQUIRE(played.size() == 1);
  CHECK((played[0].first == "a.wav" && played[0].second->lokey == 60 && played[0].second->hikey == 62));
  CHECK(in.buses.effects.empty());  // the <effects> after the root are not read
}

TEST_CASE("DecentSampler: comments and white space after the root are no repair; a well-formed preset has no warning") {
  spindle::test::TempDir dir;
  dir.write("Clean.dspreset", "<DecentSampler><groups><group><sample path=\"a.wav\"/></group></groups></DecentSampler>\n"
                              "<!-- end -->\n<?pi x?>\n");
  dir.write("a.wav", "");
  const auto in = ds::loadPreset(dir.path() / "Clean.dspreset");
  REQUIRE(in.ok);
  CHECK(in.diagnostics.empty());
  CHECK(in.regions.size() == 1);
}

TEST_CASE("DecentSampler: XML that stays broken is an error naming its line") {
  spindle::test::TempDir dir;
  dir.write("bad.dspreset", "<DecentSampler>\n<groups>\n<group>\n<sample path=\"a.wav\"\n</DecentSampler>\n");
  const auto bad = ds::loadPreset(dir.path() / "bad.dspreset");
  CHECK(!bad.ok);
  REQUIRE(bad.diagnostics.size() == 1);
  CHECK(bad.diagnostics[0].severity == spindle::instrument::Diagnostic::Severity::Error);
  CHECK(bad.diagnostics[0].message.find("not readable as XML") != std::string::npos);
  CHECK(bad.diagnostics[0].line == 5);  // where the parser gave up: </DecentSampler> closes <sample
}

}  // namespace decent_sampler_tests
