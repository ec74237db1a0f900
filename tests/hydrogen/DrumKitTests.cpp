// Hydrogen drum kits: the two fixture kits against their drumkit.xml, a kit written here
// for each mapping rule, and a .h2drumkit archive.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "Fixtures.h"
#include "TestUtil.h"
#include "catch.h"
#include "hydrogen/DrumKit.h"

namespace drum_kit_tests {

namespace fs = std::filesystem;
using spindle::Region;
using spindle::test::regionsPlaying;

namespace {

const char* kKit = R"(<?xml version="1.0" encoding="UTF-8"?>
<drumkit_info xmlns="http://www.hydrogen-music.org/drumkit">
 <name>Test Kit</name>
 <componentList><drumkitComponent><id>0</id><name>Main</name><volume>0.5</volume></drumkitComponent></componentList>
 <instrumentList>
  <instrument><id>0</id><name>Kick</name><volume>1</volume><pan>-0.5</pan><pitchOffset>2</pitchOffset>
   <gain>1</gain><muteGroup>-1</muteGroup><isStopNote>false</isStopNote><sampleSelectionAlgo>VELOCITY</sampleSelectionAlgo>
   <Attack>441</Attack><Decay>0</Decay><Sustain>1</Sustain><Release>4410</Release>
   <instrumentComponent><component_id>0</component_id><gain>1</gain>
    <layer><filename>soft.wav</filename><min>0</min><max>0.5</max><gain>0.5</gain><pitch>-1</pitch></layer>
    <layer><filename>hard.wav</filename><min>0.5</min><max>1</max><gain>1</gain><pitch>0</pitch></layer>
   </instrumentComponent></instrument>
  <instrument><id>1</id><name>Hat Closed</name><volume>1</volume><pan_L>1</pan_L><pan_R>0.5</pan_R>
   <muteGroup>3</muteGroup><isStopNote>true</isStopNote><sampleSelectionAlgo>ROUND_ROBIN</sampleSelectionAlgo>
   <applyVelocity>false</applyVelocity><randomPitchFactor>0.5</randomPitchFactor>
   <layer><filename>hat1.wav</filename><min>0</min><max>1</max><gain>1</gain><pitch>0</pitch></layer>
   <layer><filename>hat2.wav</filename><min>0</min><max>1</max><gain>1</gain><pitch>0</pitch></layer>
   <layer><filename>hat3.wav</filename><min>0</min><max>1</max><gain>1</gain><pitch>0</pitch></layer></instrument>
  <instrument><id>2</id><name>Hat Open</name><muteGroup>3</muteGroup><sampleSelectionAlgo>RANDOM</sampleSelectionAlgo>
   <layer><filename>open1.wav</filename><min>0</min><max>1</max></layer>
   <layer><filename>open2.wav</filename><min>0</min><max>1</max></layer></instrument>
 </instrumentList>
</drumkit_info>
)";

}  // namespace

TEST_CASE("Hydrogen kit: keys from 36, velocity layers, gains, pitch, pan, envelope") {
  spindle::test::TempDir dir;
  dir.write("drumkit.xml", kKit);
  for (const char* f : {"soft.wav", "hard.wav", "hat1.wav", "hat2.wav"}) dir.write(f, "");
  const auto in = spindle::hydrogen::loadDrumKit(dir.path());
  REQUIRE(in.ok);
  CHECK(in.name == "Test Kit");
  const auto soft = regionsPlaying(in, 36, 63), hard = regionsPlaying(in, 36, 64);
  REQUIRE((soft.size() == 1 && hard.size() == 1));
  CHECK((soft[0].first == "soft.wav" && hard[0].first == "hard.wav"));
  const Region& s = *soft[0].second;
  // layer 0.5 x component gain 1 x component volume 0.5 x instrument gain 1 x volume 1
  CHECK(s.volume == Approx(20.0 * std::log10(0.25)).margin(1e-4));
  CHECK(s.tune == Approx(100.0f));  // layer -1 semitone + pitchOffset 2
  CHECK(s.pan == Approx(-50.0f));
  CHECK((s.lovel == 1 && s.hivel == 63 && hard[0].second->lovel == 64 && hard[0].second->hivel == 127));
  CHECK(s.loopMode == spindle::LoopMode::OneShot);
  CHECK(s.ampeg.attack == Approx(0.01f));
  CHECK(s.ampeg.release == Approx(0.1f));
  CHECK(s.hasAmpVelcurve);
  CHECK(s.ampVelcurve[64] == Approx(64.0f / 127.0f));
  CHECK(s.pitchKeytrack == 0.0f);
  CHECK(s.group == 0);
  REQUIRE(in.keyLabels.size() == 3);
  CHECK((in.keyLabels[1].key == 37 && in.keyLabels[1].label == "Hat Closed"));
}

TEST_CASE("Hydrogen kit: mute groups choke, stop notes, round robin and random layers, missing files") {
  spindle::test::TempDir dir;
  dir.write("drumkit.xml", kKit);
  for (const char* f : {"soft.wav", "hard.wav", "hat1.wav", "hat2.wav"}) dir.write(f, "");
  const auto in = spindle::hydrogen::loadDrumKit(dir.path() / "drumkit.xml");
  const auto hats = regionsPlaying(in, 37, 100);
  REQUIRE(hats.size() == 3);
  for (size_t i = 0; i < hats.size(); ++i) {
    const Region& r = *hats[i].second;
    CHECK((r.seqLength == 3 && r.seqPosition == i + 1));
    CHECK((r.group == 4 && r.offBy == 4));
    CHECK(r.loopMode == spindle::LoopMode::NoLoop);  // isStopNote: note-off releases
    CHECK(r.ampVeltrack == 0.0f);
    CHECK(r.pan == Approx(-50.0f));  // pan_R - pan_L
    CHECK(r.pitchRandom == Approx(50.0f));
  }
  const auto open = regionsPlaying(in, 38, 100);
  REQUIRE(open.size() == 2);
  CHECK((open[0].second->lorand == 0.0f && open[0].second->hirand == 0.5f && open[1].second->lorand == 0.5f));
  CHECK(open[0].second->offBy == 4);
  CHECK(in.missingSamples.size() == 3);  // hat3, open1, open2
  CHECK(in.regions.size() == 7);
}

const char* kOldKit = R"(<?xml version="1.0" encoding="UTF-8"?>
<drumkit_info>
 <name>Old Kit</name>
 <instrumentList>
  <instrument><id>0</id><filename>kick.wav</filename><name>Kick</name><volume>0.5</volume>
   <isMuted>false</isMuted><pan_L>1</pan_L><pan_R>1</pan_R><exclude/></instrument>
  <instrument><id>1</id><filename>snare.wav</filename><name>Snare</name><volume>0.8</volume>
   <pan_L>0.8</pan_L><pan_R>0.4</pan_R></instrument>
  <instrument><id>2</id><filename>hat.wav</filename><name>Hat</name><volume>1</volume>
   <pan_L>0.25</pan_L><pan_R>1</pan_R></instrument>
 </instrumentList>
</drumkit_info>
)";

TEST_CASE("Hydrogen kit in the oldest layout: <filename> under each instrument plays at its key, level and pan") {
  spindle::test::TempDir dir;
  dir.write("drumkit.xml", kOldKit);
  for (const char* f : {"kick.wav", "snare.wav", "hat.wav"}) dir.write(f, "");
  const auto in = spindle::hydrogen::loadDrumKit(dir.path());
  REQUIRE(in.ok);
  CHECK(in.regions.size() == 3);
  CHECK(in.diagnostics.empty());
  const char* files[] = {"kick.wav", "snare.wav", "hat.wav"};
  const double volumes[] = {0.5, 0.8, 1.0};
  const float pans[] = {0.0f, -50.0f, 75.0f};  // (1, 1), (0.8, 0.4), (0.25, 1)
  for (int i = 0; i < 3; ++i) {
    for (int v : {1, 64, 127}) {
      const auto playing = regionsPlaying(in, 36 + i, v);
      REQUIRE(playing.size() == 1);
      CHECK(playing[0].first == files[i]);
      CHECK(playing[0].second->volume == Approx(20.0 * std::log10(volumes[i])).margin(1e-4));
      CHECK(playing[0].second->pan == Approx(pans[i]).margin(1e-4));
      CHECK(playing[0].second->pitchKeycenter == 36 + i);
    }
  }
  CHECK(regionsPlaying(in, 39, 100).empty());
  REQUIRE(in.keyLabels.size() == 3);
  CHECK((in.keyLabels[2].key == 38 && in.keyLabels[2].label == "Hat"));
}

TEST_CASE("Hydrogen fixture kits map every layer of drumkit.xml", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "hydrogen/GMRockKit/drumkit.xml", "hydrogen/TR808EmulationKit");
  const auto rock = spindle::hydrogen::loadDrumKit(fixtures / "hydrogen" / "GMRockKit" / "drumkit.xml");
  REQUIRE(rock.ok);
  CHECK(rock.missingSamples.empty());
  CHECK(rock.keyLabels.size() == 18);
  CHECK(rock.keyLabels[0].label == "Kick");
  CHECK(regionsPlaying(rock, 36, 20).at(0).first == "Kick-Softest.wav");
  CHECK(regionsPlaying(rock, 36, 25).at(0).first == "Kick-Softest.wav");  // 0.202899 * 127 = 25.8
  CHECK(regionsPlaying(rock, 36, 26).at(0).first == "Kick-Soft.wav");
  CHECK(regionsPlaying(rock, 36, 100).at(0).first == "Kick-Hard.wav");
  CHECK(regionsPlaying(rock, 36, 110).at(0).first == "Kick-Hardest.wav");
  CHECK(regionsPlaying(rock, 38, 100).size() == 1);  // Snare
  for (int key = 36; key < 36 + 18; ++key)
    for (int v = 1; v <= 127; ++v) CHECK(regionsPlaying(rock, key, v).size() == 1);
  const auto tr808 = spindle::hydrogen::loadDrumKit(fixtures / "hydrogen" / "TR808EmulationKit");
  REQUIRE(tr808.ok);
  CHECK(tr808.missingSamples.empty());
  CHECK(tr808.keyLabels.size() == 16);
  CHECK(regionsPlaying(tr808, 36, 64).at(0).first == "808_Kick_Long.flac");
}

TEST_CASE("A .h2drumkit archive unpacks into a cache folder and loads; a damaged one is a clear error", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "hydrogen/TR808EmulationKit");
  spindle::test::TempDir dir;
  const fs::path archive = dir.path() / "808.h2drumkit";
  const std::string tar = "tar -czf '" + archive.string() + "' -C '" + (fixtures / "hydrogen").string() + "' TR808EmulationKit";
  REQUIRE(std::system(tar.c_str()) == 0);
  std::string error;
  const fs::path kit = spindle::hydrogen::unpackArchive(archive, dir.path() / "unpacked", error);
  INFO(error);
  REQUIRE(!kit.empty());
  const auto in = spindle::hydrogen::loadDrumKit(kit);
  CHECK(in.ok);
  CHECK(in.keyLabels.size() == 16);
  CHECK(in.missingSamples.empty());
  dir.write("broken.h2drumkit", "this is not a tar file");
  CHECK(spindle::hydrogen::unpackArchive(dir.path() / "broken.h2drumkit", dir.path() / "b", error).empty());
  CHECK(error.find("broken.h2drumkit") != std::string::npos);
}

TEST_CASE("Hydrogen: a file that is not a kit is refused with its name") {
  spindle::test::TempDir dir;
  dir.write("drumkit.xml", "<other/>");
  const auto in = spindle::hydrogen::loadDrumKit(dir.path() / "drumkit.xml");
  CHECK(!in.ok);
  REQUIRE(in.diagnostics.size() == 1);
  CHECK(in.diagnostics[0].message.find("drumkit_info") != std::string::npos);
}

TEST_CASE("Hydrogen: a kit that is not XML is refused naming the file and the line the parser stopped at") {
  spindle::test::TempDir dir;
  dir.write("drumkit.xml", "<drumkit_info>\n<name>K</name>\n<instrumentList>\n<instrument>\n</instrumentList>\n"
                           "</drumkit_info>\n");
  const auto in = spindle::hydrogen::loadDrumKit(dir.path());
  CHECK(!in.ok);
  REQUIRE(in.diagnostics.size() == 1);
  CHECK(in.diagnostics[0].file == (dir.path() / "drumkit.xml").string());
  CHECK(in.diagnostics[0].line == 5);  // </instrumentList> closes <instrument>
  CHECK(in.diagnostics[0].message == "not readable as XML: Start-end tags mismatch");
}

}  // namespace drum_kit_tests
