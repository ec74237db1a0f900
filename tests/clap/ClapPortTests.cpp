// The audio ports' two layouts (audio-ports-config): the stereo main output alone, or
// with the 16 parts' own outputs, where each part plays alone while the main pair still
// carries the whole mix.
#include "ClapSong.h"
#include "PluginRenderChecks.h"
#include "catch.h"

namespace clap_port_tests {

using namespace spindle::test;

TEST_CASE("The host chooses the part outputs' layout while the plugin is inactive", "[clap]") {
  ClapHost host;
  REQUIRE(host.ok());
  const auto* ports = host.extension<clap_plugin_audio_ports_t>(CLAP_EXT_AUDIO_PORTS);
  const auto* config = host.extension<clap_plugin_audio_ports_config_t>(CLAP_EXT_AUDIO_PORTS_CONFIG);
  REQUIRE(ports);
  REQUIRE(config);
  REQUIRE(config->count(&host.plugin()) == 2);
  clap_audio_ports_config_t layout{};
  REQUIRE(config->get(&host.plugin(), 1, &layout));
  CHECK(layout.output_port_count == 17);
  CHECK(ports->count(&host.plugin(), false) == 1);
  REQUIRE(config->select(&host.plugin(), 1));
  REQUIRE(ports->count(&host.plugin(), false) == 17);
  clap_audio_port_info_t info{};
  REQUIRE(ports->get(&host.plugin(), 5, false, &info));
  CHECK(std::string(info.name) == "Part 5");
  CHECK(info.id == 5);
  CHECK(info.channel_count == 2);
  CHECK((info.flags & CLAP_AUDIO_PORT_IS_MAIN) == 0);
  REQUIRE(host.activate());
  CHECK_FALSE(config->select(&host.plugin(), 0));  // not while active
  CHECK(ports->count(&host.plugin(), false) == 17);
}

TEST_CASE("A part's own output plays it alone; the main pair carries the mix", "[clap]") {
  const auto dir = clapScratch("parts");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeTwoPartSong(dir);
  constexpr std::size_t kFrames = 48000 * 2;
  ClapHost mixed;
  REQUIRE(mixed.ok());
  const Stereo all = renderPlugin(mixed, instrument, song, kFrames, [] { return 256; });

  ClapHost split({48000.0, 256, true, true});
  REQUIRE(split.ok());
  REQUIRE(split.loadState(stateFor(instrument)));
  REQUIRE(split.activate());
  const auto events = framedEvents(spindle::io::readMidiFile(song.string()), 48000.0);
  Stereo main, first, second;
  std::size_t next = 0;
  int32_t noteIds = 1;
  for (std::size_t done = 0; done < kFrames; done += 256) {
    for (; next < events.size() && events[next].frame < static_cast<int64_t>(done + 256); ++next)
      sendEvent(split, events[next], static_cast<uint32_t>(events[next].frame - static_cast<int64_t>(done)),
                Dialect::ClapNotes, noteIds);
    split.process(256);
    main.left.insert(main.left.end(), split.left(), split.left() + 256);
    first.left.insert(first.left.end(), split.partLeft(0), split.partLeft(0) + 256);
    second.left.insert(second.left.end(), split.partLeft(1), split.partLeft(1) + 256);
  }
  // Part 2 silent before its note at 0.5 s, part 1 silent once its note (to 1 s) and its
  // 0.2 s release have ended; the main pair is the mix, summed in another order (within
  // float rounding), and equals part 2's pair once part 2 plays alone.
  CHECK(peak(second.left, 0, 24000) == 0.0);
  CHECK(peak(second.left, 62000, 72000) > 0.02);
  CHECK(peak(first.left, 0, 24000) > 0.02);
  CHECK(peak(first.left, 58000, kFrames) == 0.0);
  double mixError = 0.0, partVsMain = 0.0;
  for (std::size_t i = 0; i < kFrames; ++i) {
    mixError = std::max(mixError, std::fabs(double{main.left[i]} - double{all.left[i]}));
    if (i >= 62000) partVsMain = std::max(partVsMain, std::fabs(double{main.left[i]} - double{second.left[i]}));
  }
  CHECK(mixError < 1e-6);
  CHECK(partVsMain < 1e-6);
}

}  // namespace clap_port_tests
