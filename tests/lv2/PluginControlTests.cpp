// The plugin's "Control N" ports play the instrument's labelled controls (label_cc) as
// MIDI CCs to part 0, byte-identical to the same CCs in the song; the labels go out on
// the notify port; state keeps the values. The health ports count voices and underruns.
#include <cmath>

#include "PluginSong.h"
#include "RtGuard.h"
#include "catch.h"

namespace plugin_control_tests {

using namespace spindle::test;

namespace {

// labelled.sfz: the streamed sample behind a low-pass its "Brightness" control (CC20)
// opens and a "Level" control (CC21) that turns it down by up to 20 dB; by default dark
// (CC20 at 0) and 20 dB down (CC21 at 127).
std::filesystem::path writeLabelledInstrument(const std::filesystem::path& dir) {
  writeStreamedInstrument(dir);
  std::ofstream(dir / "labelled.sfz") << "<control> label_cc20=Brightness label_cc21=Level set_cc20=0 set_cc21=127\n"
                                         "<region> sample=long.wav pitch_keycenter=60 ampeg_release=0.25\n"
                                         "fil_type=lpf_2p cutoff=250 cutoff_oncc20=4800 volume_oncc21=-20\n";
  return dir / "labelled.sfz";
}

// writeSong's notes with CC20 and CC21 at the start, before the first note.
std::filesystem::path writeSongWithControls(const std::filesystem::path& dir, int brightness, int level) {
  writeSong(dir);
  const auto original = spindle::io::readMidiFile((dir / "song.mid").string());
  TrackBuilder track;
  track.event(0, {0xB0, 20, static_cast<uint8_t>(brightness)});
  track.event(0, {0xB0, 21, static_cast<uint8_t>(level)});
  double now = 0.0;
  for (const spindle::io::TimedMidiEvent& e : original.events) {
    if (e.status >= 0xF0) continue;
    const auto tick = static_cast<uint32_t>(std::lround(e.seconds * 960.0));  // 120 bpm, 480 a quarter
    track.event(tick - static_cast<uint32_t>(std::lround(now * 960.0)), {e.status, e.data1, e.data2});
    now = e.seconds;
  }
  track.end();
  saveBytes(dir / "song-controls.mid", buildSmf(0, 480, {track}));
  return dir / "song-controls.mid";
}

double rms(const std::vector<float>& x) {
  double sum = 0.0;
  for (const float v : x) sum += static_cast<double>(v) * static_cast<double>(v);
  return std::sqrt(sum / static_cast<double>(std::max<std::size_t>(x.size(), 1)));
}

// The mean frequency of x in Hz, from its slope's energy against its own: for a sine
// of f Hz, |x'| / |x| = 2 sin(pi f / rate).
double meanFrequency(const std::vector<float>& x) {
  double slope = 0.0, level = 0.0;
  for (std::size_t i = 1; i < x.size(); ++i) {
    slope += std::pow(static_cast<double>(x[i]) - static_cast<double>(x[i - 1]), 2.0);
    level += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  }
  return 48000.0 / M_PI * std::asin(std::min(1.0, 0.5 * std::sqrt(slope / level)));
}

}  // namespace

TEST_CASE("Control ports play the instrument's labelled controls as the same CCs in the song would", "[lv2]") {
  const auto dir = lv2Scratch("controls");
  const auto instrument = writeLabelledInstrument(dir);
  const auto plain = writeSong(dir);
  const Stereo reference = renderReference(instrument, writeSongWithControls(dir, 127, 0), dir);
  REQUIRE(reference.left.size() > 48000 * 4);
  Lv2Host host;
  REQUIRE(host.ok());
  host.setControl(1, 127.0f);  // Brightness: open
  host.setControl(2, 0.0f);    // Level: no cut
  const Stereo out = renderPlugin(host, instrument, plain, reference.left.size(), [] { return 256; });
  std::size_t first = 0;
  const std::size_t differing = differingFrames(reference, out, &first);
  INFO(differing << " frames differ from spindle-render with the CCs in the song, the first " << first);
  CHECK(differing == 0);

  // Unset, the instrument's defaults play: 20 dB down and dark.
  Lv2Host unset;
  REQUIRE(unset.ok());
  const Stereo dark = renderPlugin(unset, instrument, plain, reference.left.size(), [] { return 256; });
  const double gainDb = 20.0 * std::log10(rms(out.left) / rms(dark.left));
  const double open = meanFrequency(out.left), closed = meanFrequency(dark.left);
  INFO("level " << gainDb << " dB above the defaults; mean frequency " << open << " Hz against " << closed << " Hz");
  CHECK(gainDb > 18.0);
  CHECK(open > 1.3 * closed);
  host.getParameters();
  host.run(64);
  CHECK(host.replies().at("urn:spindle:lv2#controlLabels") == "Brightness\nLevel\n");
}

TEST_CASE("A control moved between cycles plays from the next cycle's first frame, without allocating", "[lv2][rt]") {
  const auto dir = lv2Scratch("control-moves");
  const auto instrument = writeLabelledInstrument(dir);
  std::vector<float> out[2];
  for (int moved = 0; moved < 2; ++moved) {
    Lv2Host host({48000.0, 256, false});
    REQUIRE(host.ok());
    host.setInstrument(instrument.string());
    host.run(0);
    host.run(256);
    const uint8_t on[] = {0x90, 60, 100};
    host.midi(0, on, 3);
    resetRtCounts();
    for (int cycle = 0; cycle < 40; ++cycle) {
      if (cycle == 20 && moved) host.setControl(2, 0.0f);  // Level: 20 dB up from cycle 20 on
      host.run(256, true);
      out[moved].insert(out[moved].end(), host.left(), host.left() + 256);
    }
    if (rtGuardCounting()) CHECK(rtCounts().allocs == 0);
  }
  std::size_t first = 0;
  while (first < out[0].size() && out[0][first] == out[1][first]) ++first;
  CHECK(first == 20 * 256);
  const auto level = [&](const std::vector<float>& x) {
    return rms(std::vector<float>(x.begin() + 21 * 256, x.end()));  // past the 64-frame gain ramp
  };
  CHECK(20.0 * std::log10(level(out[1]) / level(out[0])) == Approx(20.0).margin(0.05));
}

TEST_CASE("State keeps the control ports' values", "[lv2]") {
  const auto dir = lv2Scratch("controls-state");
  const auto instrument = writeLabelledInstrument(dir);
  const auto song = writeSong(dir);
  const std::size_t frames = 48000 * 3;
  Lv2Host first;
  REQUIRE(first.ok());
  first.setControl(1, 90.0f);
  first.setControl(2, 30.0f);
  const Stereo before = renderPlugin(first, instrument, song, frames, [] { return 256; });
  REQUIRE(first.saveState(dir / "saved"));

  Lv2Host second;  // its ports stay at -1: the state's values play
  REQUIRE(second.ok());
  REQUIRE(second.restoreState(dir / "saved"));
  second.run(0);
  Stereo after;
  renderThrough(second, framedEvents(spindle::io::readMidiFile(song.string()), 48000.0), frames, [] { return 256; },
                after.left, after.right);
  CHECK(peak(before.left, 0, frames) > 0.01);
  CHECK(differingFrames(before, after) == 0);
}

TEST_CASE("Health ports: voices while notes sound, none after, no underrun in freewheel", "[lv2]") {
  const auto dir = lv2Scratch("health");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  Lv2Host host;
  REQUIRE(host.ok());
  host.setInstrument(instrument.string());
  host.run(0);
  const auto events = framedEvents(spindle::io::readMidiFile(song.string()), 48000.0);
  std::vector<float> left, right;
  float most = 0.0f, atTwoSeconds = -1.0f, cacheFill = 0.0f;
  int64_t frame = 0;
  renderThrough(host, events, 48000 * 6, [&] {  // the health as the previous block left it
    most = std::max(most, host.health().voices);
    cacheFill = std::max(cacheFill, host.health().cacheFill);
    if (frame == 48000 * 2) atTwoSeconds = host.health().voices;
    frame += 250;
    return 250;
  }, left, right);
  CHECK(atTwoSeconds >= 2.0f);  // the notes at 0.81 and 1.56 s still sound
  CHECK(most >= 3.0f);
  CHECK(cacheFill > 0.0f);
  CHECK(cacheFill <= 100.0f);
  CHECK(host.health().latencyMs == 0.0f);  // sample-accurate: no frame between event and sound
  CHECK(host.health().voices == 0.0f);     // the last note-off at 4.79 s, released in 0.25 s
  CHECK(host.health().underruns == 0.0f);
}

}  // namespace plugin_control_tests
