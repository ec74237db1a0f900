// State: the host saves the plugin's state (the instrument's path through map_path,
// part 0's level), a second instance restores it and renders the same.
#include "PluginSong.h"
#include "catch.h"

namespace plugin_state_tests {

using namespace spindle::test;

TEST_CASE("A restored plugin plays the saved instrument at the saved level, byte-identical", "[lv2]") {
  const auto dir = lv2Scratch("state");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  const std::size_t frames = 48000 * 4;
  Lv2Host first;
  REQUIRE(first.ok());
  first.setLevel(-6.0f);
  const Stereo before = renderPlugin(first, instrument, song, frames, [] { return 256; });
  REQUIRE(first.saveState(dir / "saved"));

  Lv2Host second;
  REQUIRE(second.ok());
  REQUIRE(second.restoreState(dir / "saved"));
  CHECK(second.takeLog().empty());
  second.run(0);
  Stereo after;
  renderThrough(second, framedEvents(spindle::io::readMidiFile(song.string()), 48000.0), frames, [] { return 256; },
                after.left, after.right);
  CHECK(peak(before.left, 0, frames) > 0.05);
  CHECK(differingFrames(before, after) == 0);

  // The level is heard: the same song at 0 dB is 6 dB louder.
  Lv2Host unity;
  REQUIRE(unity.ok());
  const Stereo loud = renderPlugin(unity, instrument, song, frames, [] { return 256; });
  CHECK(peak(loud.left, 0, frames) / peak(before.left, 0, frames) == Approx(std::pow(10.0, 6.0 / 20.0)).epsilon(0.01));
  second.getParameters();
  second.run(64);
  CHECK(second.replies().at("urn:spindle:lv2#instrument") == instrument.string());
  CHECK(std::stof(second.replies().at("urn:spindle:lv2#level")) == Approx(-6.0));
}

}  // namespace plugin_state_tests
