// The CLAP plugin renders through process() what spindle-render renders: in offline
// mode (the render extension) the same engine waits for the disk, so the output is
// byte-identical whatever the host's blocks.
#include <random>

#include "ClapSong.h"
#include "Fixtures.h"
#include "catch.h"

using namespace spindle::test;

namespace {

// Renders the instrument through the plugin at host blocks of 64 and 256 frames and of
// pseudo-random 1..700 frames, each compared frame by frame to spindle-render's output.
// `modulated`: the instrument follows controller modulation, whose control steps start
// at each block's first frame (docs/ARCHITECTURE.md, "Block sizes"): at irregular
// blocks within 1e-6, as for the LV2 plugin.
void checkIdentical(const std::filesystem::path& instrument, const std::filesystem::path& dir, bool modulated) {
  const auto song = writeSong(dir);
  for (const int block : {64, 256}) {
    const Stereo reference = renderReference(instrument, song, dir, block);
    REQUIRE(reference.left.size() > 48000 * 4);
    REQUIRE(peak(reference.left, 0, reference.left.size()) > 0.05);
    ClapHost host;
    REQUIRE(host.ok());
    const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [&] { return block; });
    std::size_t first = 0;
    const std::size_t differing = differingFrames(reference, out, &first);
    INFO("block " << block << ": " << differing << " frames differ, the first " << first);
    CHECK(out.left.size() == reference.left.size());
    CHECK(differing == 0);
  }
  const Stereo reference = renderReference(instrument, song, dir);
  ClapHost host({48000.0, 700, true});
  REQUIRE(host.ok());
  std::mt19937 random(11);
  std::uniform_int_distribution<int> length(1, 700);
  const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [&] { return length(random); });
  std::size_t first = 0;
  const std::size_t differing = differingFrames(reference, out, &first);
  INFO("blocks of 1 to 700 frames: " << differing << " frames differ, the first " << first << ", by at most "
                                      << largestDifference(reference, out));
  CHECK(out.left.size() == reference.left.size());
  if (modulated)
    CHECK(largestDifference(reference, out) < 1e-6);
  else
    CHECK(differing == 0);
}

}  // namespace

TEST_CASE("spindle.clap renders a streamed sample byte-identical to spindle-render", "[clap]") {
  const auto dir = clapScratch("identical-generated");
  checkIdentical(writeStreamedInstrument(dir), dir, false);
}

TEST_CASE("spindle.clap renders weresax Sax1 byte-identical to spindle-render", "[clap][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "realworld/karoryfer-weresax/Programs/Sax1.sfz");
  checkIdentical(fixtures / "realworld/karoryfer-weresax/Programs/Sax1.sfz", clapScratch("identical-sax1"), true);
}

TEST_CASE("Host blocks longer than the engine's are cut at the engine's block", "[clap]") {
  const auto dir = clapScratch("split-blocks");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  const Stereo reference = renderReference(instrument, song, dir, 1024);
  REQUIRE_FALSE(reference.left.empty());
  // The host names 4096 as its longest block; the plugin's engine takes it (at most
  // limits::kMaxBlockFrames) and cuts the 3000-frame blocks where they exceed it.
  ClapHost host({48000.0, 4096, true});
  REQUIRE(host.ok());
  const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [] { return 3000; });
  CHECK(differingFrames(reference, out) == 0);
}
