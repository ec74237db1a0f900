// The parts' optional outputs: a part whose two ports are connected plays there alone,
// and the main pair carries the whole mix.
#include "PluginSong.h"
#include "PluginRenderChecks.h"
#include "catch.h"

namespace plugin_part_tests {

using namespace spindle::test;

TEST_CASE("A part with its output connected plays there alone, the main pair carries the mix", "[lv2]") {
  const auto dir = lv2Scratch("parts");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeTwoPartSong(dir);
  constexpr int64_t kFrames = 48000 * 2, kBlock = 256;
  Lv2Host mixed;
  REQUIRE(mixed.ok());
  const Stereo all = renderPlugin(mixed, instrument, song, kFrames, [] { return kBlock; });

  Lv2Host split;
  REQUIRE(split.ok());
  split.connectPart(1);  // part 2
  split.setInstrument(instrument.string());
  split.run(0);
  const auto events = framedEvents(spindle::io::readMidiFile(song.string()), 48000.0);
  Stereo main, part;
  std::size_t next = 0;
  for (int64_t done = 0; done < kFrames; done += kBlock) {
    for (; next < events.size() && events[next].frame < done + kBlock; ++next)
      split.midi(static_cast<uint32_t>(events[next].frame - done), events[next].bytes.data(), events[next].size);
    split.run(kBlock);
    main.left.insert(main.left.end(), split.left(), split.left() + kBlock);
    main.right.insert(main.right.end(), split.right(), split.right() + kBlock);
    part.left.insert(part.left.end(), split.partLeft(1), split.partLeft(1) + kBlock);
    part.right.insert(part.right.end(), split.partRight(1), split.partRight(1) + kBlock);
  }
  // Part 2 alone on its pair: silent before its note at 0.5 s, sounding after part 1's
  // note and release have ended; the main pair still carries both parts: the mix
  // (summed in another order: within float rounding).
  CHECK(peak(part.left, 0, 24000) == 0.0);
  CHECK(peak(part.left, 62000, 72000) > 0.02);
  CHECK(peak(main.left, 62000, 72000) > 0.02);
  double largest = 0.0, partVsMain = 0.0;
  for (std::size_t i = 0; i < all.left.size(); ++i) {
    largest = std::max(largest, std::fabs(static_cast<double>(main.left[i]) - static_cast<double>(all.left[i])));
    if (i >= 62000) partVsMain = std::max(partVsMain, std::fabs(static_cast<double>(main.left[i]) - static_cast<double>(part.left[i])));
  }
  CHECK(largest < 1e-6);
  CHECK(partVsMain < 1e-6);  // only part 2 sounds then: its pair is the mix
}

TEST_CASE("Part outputs a host gives one shared scratch buffer stay off the main pair", "[lv2]") {
  const auto dir = lv2Scratch("parts-scratch");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeTwoPartSong(dir);
  constexpr int64_t kFrames = 48000 * 2, kBlock = 256;
  Lv2Host mixed;
  REQUIRE(mixed.ok());
  const Stereo all = renderPlugin(mixed, instrument, song, kFrames, [] { return kBlock; });
  Lv2Host shared;
  REQUIRE(shared.ok());
  shared.connectPartsToScratch();
  const Stereo main = renderPlugin(shared, instrument, song, kFrames, [] { return kBlock; });
  REQUIRE(main.left.size() == all.left.size());
  CHECK(peak(main.left, 0, main.left.size()) > 0.02);
  CHECK(main.left == all.left);
  CHECK(main.right == all.right);
}

}  // namespace plugin_part_tests
