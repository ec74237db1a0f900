// The CLAP plugin renders through process() what spindle-render renders: in offline
// mode (the render extension) the same engine waits for the disk, so the output is
// byte-identical whatever the host's blocks.
#include <random>

#include "ClapSong.h"
#include "Fixtures.h"
#include "PluginRenderChecks.h"
#include "catch.h"

namespace clap_render_tests {

using namespace spindle::test;

namespace {

void checkIdentical(const std::filesystem::path& instrument, const std::filesystem::path& dir, bool modulated) {
  checkRendersLikeSpindleRender<ClapHost>(instrument, writeSong(dir), dir, modulated, 11);
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

}  // namespace clap_render_tests
