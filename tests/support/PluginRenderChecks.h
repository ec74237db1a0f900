#pragma once
// The render check every plugin format's tests make (tests/lv2, tests/clap): the plugin,
// driven by its host at blocks of 64, 256 and pseudo-random 1..700 frames, renders what
// spindle-render renders. Include it after the host's own header, which defines Host and
// renderPlugin(Host&, instrument, song, frames, nextBlock).
#include <filesystem>
#include <random>

#include "PluginRenders.h"
#include "catch.h"

namespace spindle::test {

// Byte-identical at every block length: the engine's frames do not depend on where
// blocks end. `modulated`: the instrument's voices follow controller modulation, whose
// control steps still start at each block's first frame (docs/ARCHITECTURE.md, "Block
// sizes"): at irregular blocks within 1e-6 (measured at most 6e-8 for Sax1, at the
// song's CC7 move). `seed` picks the irregular blocks.
template <typename Host>
void checkRendersLikeSpindleRender(const std::filesystem::path& instrument, const std::filesystem::path& song,
                                   const std::filesystem::path& dir, bool modulated, unsigned seed) {
  for (const int block : {64, 256}) {
    const Stereo reference = renderReference(instrument, song, dir, block);
    REQUIRE(reference.left.size() > 48000 * 4);
    REQUIRE(peak(reference.left, 0, reference.left.size()) > 0.05);
    Host host;
    REQUIRE(host.ok());
    const Stereo out = renderPlugin(host, instrument, song, reference.left.size(), [&] { return block; });
    std::size_t first = 0;
    const std::size_t differing = differingFrames(reference, out, &first);
    INFO("block " << block << ": " << differing << " frames differ, the first " << first);
    CHECK(out.left.size() == reference.left.size());
    CHECK(differing == 0);
  }
  const Stereo reference = renderReference(instrument, song, dir);
  Host host({48000.0, 700, true});
  REQUIRE(host.ok());
  std::mt19937 random(seed);
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

// Part 1 (MIDI channel 1) holds key 60 from 0 to 1 s, part 2 key 64 from 0.5 to 1.5 s.
inline std::filesystem::path writeTwoPartSong(const std::filesystem::path& dir) {
  TrackBuilder track;
  track.event(0, {0x90, 60, 100});
  track.event(480, {0x91, 64, 100});
  track.event(480, {0x80, 60, 0});
  track.event(480, {0x81, 64, 0});
  track.end();
  saveBytes(dir / "two-parts.mid", buildSmf(0, 480, {track}));
  return dir / "two-parts.mid";
}

}  // namespace spindle::test
