// A .multisample generated here (sample WAVs, multisample.xml, zipped with libarchive)
// renders through spindle-render frame for frame as the same mapping written as SFZ:
// zones over keys and velocities, a layer, key and velocity fades, tuning, key tracking,
// gain, sample start and stop, loops with and without a crossfade.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "RenderSupport.h"
#include "catch.h"
#include "ArchiveWriter.h"
#include "stream/TestAudioFiles.h"

namespace multisample_render_tests {

namespace fs = std::filesystem;
using spindle::test::Rendered;
using spindle::test::SongEvent;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr int kRate = 48000;

// One second of a mono 16-bit tone at `hz` with its third harmonic, so every sample differs.
void writeTone(const fs::path& file, double hz, double level) {
  std::vector<int16_t> frames;
  for (int i = 0; i < kRate; ++i) {
    const double t = 2.0 * std::numbers::pi * hz * i / kRate;
    frames.push_back(static_cast<int16_t>(std::lround(level * (0.8 * std::sin(t) + 0.2 * std::sin(3.0 * t)))));
  }
  spindle::test::writeWav16(file, 1, frames, kRate);
}

const char* kMapping = R"(<?xml version="1.0" encoding="UTF-8"?>
<multisample name="Generated">
  <generator>Spindle tests</generator>
  <group name="Low"/>
  <group name="High"/>
  <sample file="a.wav" gain="-3" group="0">
    <key low="36" high="59" root="48" tune="0.25" low-fade="4"/>
    <velocity low="1" high="90" high-fade="10"/>
    <loop mode="loop" start="1000" stop="5800" fade="0.1"/>
  </sample>
  <sample file="b.wav" group="0" sample-start="200" sample-stop="30000">
    <key low="36" high="59" root="48"/>
    <velocity low="91" high="127" low-fade="5"/>
  </sample>
  <sample file="c.wav" group="1">
    <key low="60" high="84" root="72" track="0.5" high-fade="4"/>
    <velocity low="1" high="127"/>
    <loop mode="loop" start="2000" stop="20000"/>
  </sample>
  <sample file="d.wav" group="1" gain="-6">
    <key low="60" high="84" root="72"/>
    <velocity low="100" high="127"/>
    <loop mode="off"/>
  </sample>
</multisample>
)";

// The same mapping as Bitwig Studio writes it: samples in <layer>s, a sample's own tune,
// track="true".
const char* kLayers = R"(<?xml version="1.0" encoding="UTF-8"?>
<multisample name="Generated">
  <generator>Bitwig Studio</generator>
  <category/>
  <keywords><keyword>test</keyword></keywords>
  <layer name="Low">
    <sample file="a.wav" gain="-3" tune="0.25">
      <key low="36" high="59" root="48" low-fade="4"/>
      <velocity low="1" high="90" high-fade="10"/>
      <loop mode="loop" start="1000" stop="5800" fade="0.1"/>
    </sample>
    <sample file="b.wav" sample-start="200" sample-stop="30000">
      <key low="36" high="59" root="48"/>
      <velocity low="91" high="127" low-fade="5"/>
    </sample>
  </layer>
  <layer name="High">
    <sample file="c.wav">
      <key low="60" high="84" root="72" track="0.5" high-fade="4"/>
      <velocity low="1" high="127"/>
      <loop mode="loop" start="2000" stop="20000"/>
    </sample>
    <sample file="d.wav" gain="-6">
      <key low="60" high="84" root="72" track="true"/>
      <velocity low="100" high="127"/>
      <loop mode="off"/>
    </sample>
  </layer>
</multisample>
)";

// The same mapping as SFZ: stops are exclusive in the multisample, inclusive here.
std::string sfzMapping(int tuneA) {
  return "<region> sample=a.wav lokey=36 hikey=59 pitch_keycenter=48 tune=" + std::to_string(tuneA) +
         " xfin_lokey=36 xfin_hikey=40 lovel=1 hivel=90 xfout_lovel=80 xfout_hivel=90 volume=-3"
         " loop_mode=loop_continuous loop_start=1000 loop_end=5799 loop_crossfade=0.01\n"
         "<region> sample=b.wav lokey=36 hikey=59 pitch_keycenter=48 lovel=91 hivel=127 xfin_lovel=91 xfin_hivel=96"
         " offset=200 end=29999 loop_mode=no_loop\n"
         "<region> sample=c.wav lokey=60 hikey=84 pitch_keycenter=72 pitch_keytrack=50 xfout_lokey=80 xfout_hikey=84"
         " lovel=1 hivel=127 loop_mode=loop_continuous loop_start=2000 loop_end=19999\n"
         "<region> sample=d.wav lokey=60 hikey=84 pitch_keycenter=72 lovel=100 hivel=127 volume=-6 loop_mode=no_loop\n";
}

// Notes on every zone, held past their loops' ends (960 ticks = 1 s).
std::vector<SongEvent> song() {
  const auto on = [](uint32_t tick, uint8_t key, uint8_t velocity) { return SongEvent{tick, {0x90, key, velocity}}; };
  const auto off = [](uint32_t tick, uint8_t key) { return SongEvent{tick, {0x80, key, 0}}; };
  return {on(0, 38, 85),   on(240, 50, 110), on(480, 82, 120), off(720, 50),  on(960, 65, 60),
          on(960, 55, 93), off(1440, 38),    off(1440, 82),    off(1680, 55), off(1728, 65)};
}

// The first frame where the renders differ, or -1.
int64_t firstDifference(const Rendered& a, const Rendered& b) {
  if (a.left.size() != b.left.size()) return static_cast<int64_t>(std::min(a.left.size(), b.left.size()));
  for (size_t i = 0; i < a.left.size(); ++i)
    if (a.left[i] != b.left[i] || a.right[i] != b.right[i]) return static_cast<int64_t>(i);
  return -1;
}

}  // namespace

TEST_CASE("A generated .multisample renders frame for frame as the same mapping in SFZ") {
  const auto dir = spindle::test::scratchDir("multisample-render");
  ::setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  writeTone(dir / "a.wav", 220.0, 12000.0);
  writeTone(dir / "b.wav", 330.0, 9000.0);
  writeTone(dir / "c.wav", 440.0, 11000.0);
  writeTone(dir / "d.wav", 587.0, 7000.0);
  const fs::path archive = dir / "Generated.multisample";
  {
    spindle::test::ArchiveWriter zip(archive);
    zip.file("multisample.xml", kMapping);
    for (const char* f : {"a.wav", "b.wav", "c.wav", "d.wav"}) zip.copy(f, dir / f);
  }
  std::ofstream(dir / "same.sfz") << sfzMapping(25);
  std::ofstream(dir / "detuned.sfz") << sfzMapping(0);
  const Rendered ms = spindle::test::renderSong(kExe, archive, song(), dir, "ms");
  const Rendered sfz = spindle::test::renderSong(kExe, dir / "same.sfz", song(), dir, "sfz");
  const Rendered detuned = spindle::test::renderSong(kExe, dir / "detuned.sfz", song(), dir, "detuned");
  INFO(ms.out << ms.err);
  REQUIRE((ms.exitCode == 0 && sfz.exitCode == 0 && detuned.exitCode == 0));
  CHECK(ms.out.find("regions:         4") != std::string::npos);
  REQUIRE(ms.left.size() > static_cast<size_t>(kRate * 17 / 10));  // the song lasts 1.8 s
  // Each stretch of the song sounds (the comparison is not of two silences).
  for (double second : {0.1, 0.4, 0.6, 1.2, 1.6}) {
    const auto from = static_cast<size_t>(second * kRate);
    CHECK(spindle::test::levelDb(ms, from, from + kRate / 10) > -40.0);
  }
  CHECK(firstDifference(ms, sfz) == -1);
  // A quarter tone on one zone is a different render: the comparison can fail.
  CHECK(firstDifference(ms, detuned) >= 0);
  CHECK(spindle::test::relativeDifference(ms, detuned) > 1e-3);
}

TEST_CASE("A .multisample with its samples in two <layer>s, as Bitwig Studio writes it, renders as the same mapping in SFZ") {
  const auto dir = spindle::test::scratchDir("multisample-layers");
  ::setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  writeTone(dir / "a.wav", 220.0, 12000.0);
  writeTone(dir / "b.wav", 330.0, 9000.0);
  writeTone(dir / "c.wav", 440.0, 11000.0);
  writeTone(dir / "d.wav", 587.0, 7000.0);
  const fs::path archive = dir / "Layers.multisample";
  {
    spindle::test::ArchiveWriter zip(archive);
    zip.file("multisample.xml", kLayers);
    for (const char* f : {"a.wav", "b.wav", "c.wav", "d.wav"}) zip.copy(f, dir / f);
  }
  std::ofstream(dir / "same.sfz") << sfzMapping(25);
  const Rendered ms = spindle::test::renderSong(kExe, archive, song(), dir, "layers");
  const Rendered sfz = spindle::test::renderSong(kExe, dir / "same.sfz", song(), dir, "sfz");
  INFO(ms.out << ms.err);
  REQUIRE((ms.exitCode == 0 && sfz.exitCode == 0));
  CHECK(ms.out.find("regions:         4") != std::string::npos);
  CHECK(ms.err.find("not supported") == std::string::npos);
  REQUIRE(ms.left.size() > static_cast<size_t>(kRate * 17 / 10));
  for (double second : {0.1, 0.4, 0.6, 1.2, 1.6}) {
    const auto from = static_cast<size_t>(second * kRate);
    CHECK(spindle::test::levelDb(ms, from, from + kRate / 10) > -40.0);
  }
  CHECK(firstDifference(ms, sfz) == -1);
}

}  // namespace multisample_render_tests
