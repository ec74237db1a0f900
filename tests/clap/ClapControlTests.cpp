// The library's labelled controls as parameters: named after the labels, each value
// played as its MIDI CC on part 0 at its frame (byte-identical to the same CC in the
// MIDI), kept in the state and sent again to a library loaded after it was set.
#include "ClapSong.h"
#include "catch.h"

namespace clap_control_tests {

using namespace spindle::test;

namespace {

// labelled.sfz: the streamed sample behind a low-pass its "Brightness" control (CC20)
// opens and a "Level" control (CC21) that turns it down by up to 20 dB.
std::filesystem::path writeLabelledInstrument(const std::filesystem::path& dir) {
  writeStreamedInstrument(dir);
  std::ofstream(dir / "labelled.sfz") << "<control> label_cc20=Brightness label_cc21=Level set_cc20=0 set_cc21=127\n"
                                         "<region> sample=long.wav pitch_keycenter=60 ampeg_release=0.2\n"
                                         "fil_type=lpf_2p cutoff=250 cutoff_oncc20=4800 volume_oncc21=-20\n";
  return dir / "labelled.sfz";
}

// The song with Brightness and Level set at frame 0, as parameters or as MIDI CCs.
Stereo renderWithControls(const std::filesystem::path& instrument, const std::filesystem::path& song, bool asParams,
                          ClapHost& host, std::size_t frames) {
  if (!host.loadState(stateFor(instrument)) || !host.activate()) return {};
  if (asParams) {
    host.param(0, param::kFirstControl, 100.0);
    host.param(0, param::kFirstControl + 1, 0.0);
  } else {
    host.midi(0, std::array<uint8_t, 3>{0xB0, 20, 100}.data());
    host.midi(0, std::array<uint8_t, 3>{0xB0, 21, 0}.data());
  }
  return renderThrough(host, framedEvents(spindle::io::readMidiFile(song.string()), 48000.0), frames,
                       [] { return 256; });
}

}  // namespace

TEST_CASE("The library's labelled controls are parameters named after their labels", "[clap]") {
  const auto dir = clapScratch("control-names");
  ClapHost host;
  REQUIRE(host.ok());
  REQUIRE(host.loadState(stateFor(writeLabelledInstrument(dir))));
  REQUIRE(host.activate());
  const auto* params = host.extension<clap_plugin_params_t>(CLAP_EXT_PARAMS);
  REQUIRE(params);
  const char* names[] = {"Brightness", "Level", "Control 3"};
  for (clap_id n = 0; n < 3; ++n) {
    clap_param_info_t info{};
    REQUIRE(params->get_info(&host.plugin(), param::kFirstControl + n, &info));
    CHECK(std::string(info.name) == names[n]);
    CHECK(info.min_value == -1.0);
    CHECK(info.max_value == 127.0);
    CHECK(info.default_value == -1.0);
    CHECK((info.flags & CLAP_PARAM_IS_AUTOMATABLE) != 0);
  }
}

TEST_CASE("A control parameter plays byte-identical to the same MIDI CC", "[clap]") {
  const auto dir = clapScratch("control-identical");
  const auto instrument = writeLabelledInstrument(dir);
  const auto song = writeSong(dir);
  constexpr std::size_t kFrames = 48000 * 4;
  ClapHost viaParams, viaMidi, untouched;
  REQUIRE(viaParams.ok());
  REQUIRE(viaMidi.ok());
  REQUIRE(untouched.ok());
  const Stereo params = renderWithControls(instrument, song, true, viaParams, kFrames);
  const Stereo midi = renderWithControls(instrument, song, false, viaMidi, kFrames);
  const Stereo plain = renderPlugin(untouched, instrument, song, kFrames, [] { return 256; });
  REQUIRE(params.left.size() == kFrames);
  CHECK(peak(params.left, 0, kFrames) > 0.05);
  CHECK(differingFrames(midi, params) == 0);
  // The controls are heard: brighter and 20 dB louder than the library's defaults.
  CHECK(peak(params.left, 0, kFrames) > 3.0 * peak(plain.left, 0, kFrames));
  double value = 0.0;
  REQUIRE(viaParams.paramValue(param::kFirstControl, value));
  CHECK(value == 100.0);
}

TEST_CASE("Control values are kept in the state and sent again to the library loaded after them", "[clap]") {
  const auto dir = clapScratch("control-state");
  const auto instrument = writeLabelledInstrument(dir);
  const auto song = writeSong(dir);
  constexpr std::size_t kFrames = 48000 * 3;
  ClapHost first;
  REQUIRE(first.ok());
  const Stereo before = renderWithControls(instrument, song, true, first, kFrames);
  const std::optional<std::string> saved = first.saveState();
  REQUIRE(saved);
  CHECK(saved->find("\ncontrols 100 0 -1 ") != std::string::npos);
  ClapHost second;
  REQUIRE(second.ok());
  REQUIRE(second.loadState(*saved));  // before activate(): the values wait for the library
  REQUIRE(second.activate());
  const Stereo after = renderThrough(second, framedEvents(spindle::io::readMidiFile(song.string()), 48000.0), kFrames,
                                     [] { return 256; });
  CHECK(peak(before.left, 0, kFrames) > 0.05);
  CHECK(differingFrames(before, after) == 0);
}

}  // namespace clap_control_tests
