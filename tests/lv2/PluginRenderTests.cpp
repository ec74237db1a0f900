// The plugin renders through run() what spindle-render renders: in freewheel, the same
// engine waits for the disk, so the output is byte-identical whatever the host's blocks.
#include <random>

#include "Fixtures.h"
#include "PluginSong.h"
#include "catch.h"

using namespace spindle::test;

namespace {

// Renders the instrument through the plugin at host blocks of 64 and 256 frames, and
// of pseudo-random 1..700 frames, and compares each, frame by frame, to spindle-render's
// output: byte-identical, as the engine's frames do not depend on where blocks end.
// `modulated`: the instrument's voices follow controller modulation, whose control steps
// still start at each block's first frame (docs/ARCHITECTURE.md, "Block sizes"): at
// irregular blocks within 1e-6 (measured at most 6e-8 for Sax1, at the song's CC7 move).
void checkIdentical(const std::filesystem::path& instrument, const std::filesystem::path& dir, bool modulated) {
  const auto song = writeSong(dir);
  for (const int block : {64, 256}) {
    const Stereo reference = renderReference(instrument, song, dir, block);
    REQUIRE(reference.left.size() > 48000 * 4);
    REQUIRE(peak(reference.left, 0, reference.left.size()) > 0.05);
    Lv2Host host;
    REQUIRE(host.ok());
    const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [&] { return block; });
    std::size_t first = 0;
    const std::size_t differing = differingFrames(reference, out, &first);
    INFO("block " << block << ": " << differing << " frames differ, the first " << first);
    CHECK(differing == 0);
  }
  const Stereo reference = renderReference(instrument, song, dir);
  Lv2Host host({48000.0, 700, true});
  REQUIRE(host.ok());
  std::mt19937 random(7);
  std::uniform_int_distribution<int> length(1, 700);
  const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [&] { return length(random); });
  std::size_t first = 0;
  const std::size_t differing = differingFrames(reference, out, &first);
  INFO("blocks of 1 to 700 frames: " << differing << " frames differ, the first " << first << ", by at most "
                                      << largestDifference(reference, out));
  if (modulated)
    CHECK(largestDifference(reference, out) < 1e-6);
  else
    CHECK(differing == 0);
  CHECK(out.left.size() == reference.left.size());
}

}  // namespace

TEST_CASE("The LV2 plugin renders a streamed sample byte-identical to spindle-render", "[lv2]") {
  const auto dir = lv2Scratch("identical-generated");
  checkIdentical(writeStreamedInstrument(dir), dir, false);
}

TEST_CASE("The LV2 plugin renders weresax Sax1 byte-identical to spindle-render", "[lv2][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "realworld/karoryfer-weresax/Programs/Sax1.sfz");
  checkIdentical(fixtures / "realworld/karoryfer-weresax/Programs/Sax1.sfz", lv2Scratch("identical-sax1"), true);
}

TEST_CASE("Host blocks longer than the engine's are split at the engine's block", "[lv2]") {
  const auto dir = lv2Scratch("split-blocks");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  const Stereo reference = renderReference(instrument, song, dir, 1024);
  REQUIRE_FALSE(reference.left.empty());
  Lv2Host host({48000.0, 0, true});  // no options: the engine's block is 1024 frames
  REQUIRE(host.ok());
  const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [] { return 2048; });
  CHECK(differingFrames(reference, out) == 0);
}

TEST_CASE("patch:Get replies with the instrument; a bad one is named and the old one plays on", "[lv2]") {
  const auto dir = lv2Scratch("patch-get");
  const auto instrument = writeStreamedInstrument(dir);
  Lv2Host host;
  REQUIRE(host.ok());
  host.setInstrument(instrument.string());
  host.run(64);
  host.run(64);  // the load's response: the plugin announces the new path
  CHECK(host.replies().at("urn:spindle:lv2#instrument") == instrument.string());
  host.takeLog();

  std::ofstream(dir / "bad.sfz") << "// no sample of it exists\n<region> sample=nothere.wav\n";
  host.setInstrument((dir / "bad.sfz").string());
  host.run(64);
  const std::vector<std::string> log = host.takeLog();
  bool named = false;
  for (const std::string& line : log) named |= line.find((dir / "bad.sfz").string() + ":2: ") != std::string::npos;
  INFO(log.size() << " log lines, first: " << (log.empty() ? "" : log.front()));
  CHECK(named);
  host.getParameters();
  host.run(64);
  CHECK(host.replies().at("urn:spindle:lv2#instrument") == instrument.string());
  const uint8_t on[] = {0x90, 60, 100};
  host.midi(10, on, 3);
  host.run(256);
  CHECK(peak(std::vector<float>(host.left(), host.left() + 10), 0, 10) == 0.0);
  CHECK(peak(std::vector<float>(host.left(), host.left() + 256), 10, 256) > 0.01);
}

TEST_CASE("A load the host's full worker queue refused is asked again in the next cycles", "[lv2]") {
  const auto dir = lv2Scratch("worker-full");
  const auto instrument = writeStreamedInstrument(dir);
  Lv2Host host;
  REQUIRE(host.ok());
  host.refuseWork(true);
  host.setInstrument(instrument.string());
  host.run(64);
  host.run(64);
  CHECK(host.replies().count("urn:spindle:lv2#instrument") == 0);
  host.refuseWork(false);
  host.run(64);  // asked again; the worker loads it after this cycle
  host.run(64);
  CHECK(host.replies().at("urn:spindle:lv2#instrument") == instrument.string());
}
