// CLAP note expressions: each moves its own note only, through the per-note path MPE
// notes take, so a CLAP gesture and the same gesture in MPE sound the same.
#include "ClapExpression.h"
#include "catch.h"

namespace clap_expression_tests {

using namespace spindle::test;

namespace {

constexpr std::size_t kFrames = 141 * 256;  // 36096
constexpr uint32_t kBlock = 256;
// A tuning of +2 semitones as the engine keeps it: a bend of the 48-semitone member
// range, 14 bits (round(200 / 4800 * 8191) = 341 steps).
constexpr int kBendSteps = 341;
const double kTunedCents = kBendSteps / 8191.0 * 4800.0;

// Note 1 (key 60, left) and note 2 (key 72, right) overlap; note 1 is tuned up 2
// semitones at frame 12000, note 2's brightness (CC74, its level) goes from 64 to 127
// at frame 24000.
std::vector<Gesture> clapGestures() {
  return {noteOn(1000, 1, 60), noteOn(2000, 2, 72),
          expression(2000, 2, CLAP_NOTE_EXPRESSION_BRIGHTNESS, 64.0f / 127.0f),
          expression(12000, 1, CLAP_NOTE_EXPRESSION_TUNING, 2.0),
          expression(24000, 2, CLAP_NOTE_EXPRESSION_BRIGHTNESS, 127.0f / 127.0f),
          noteOff(34000, 1, 60), noteOff(34000, 2, 72)};
}

// The same in MPE: a lower zone of 15 (RPN 6 on channel 1), note 1 on channel 2, note 2
// on channel 3, the tuning as channel 2's bend, the brightness as channel 3's CC74.
std::vector<Gesture> mpeGestures() {
  const int bend = 8192 + kBendSteps;
  return {midi(0, 0xB0, 101, 0), midi(0, 0xB0, 100, 6), midi(0, 0xB0, 6, 15),
          midi(1000, 0x91, 60, 100), midi(2000, 0x92, 72, 100), midi(2000, 0xB2, 74, 64),
          midi(12000, 0xE1, static_cast<uint8_t>(bend & 0x7F), static_cast<uint8_t>(bend >> 7)),
          midi(24000, 0xB2, 74, 127), midi(34000, 0x81, 60, 0), midi(34000, 0x82, 72, 0)};
}

Stereo render(const std::filesystem::path& instrument, const std::vector<Gesture>& script) {
  ClapHost host({48000.0, kBlock, true});
  if (!host.ok() || !host.loadState(stateFor(instrument)) || !host.activate()) return {};
  return play(host, script, kFrames, kBlock);
}

}  // namespace

TEST_CASE("CLAP tuning and brightness expressions move only their own note", "[clap][expression]") {
  const auto dir = clapScratch("expression-own");
  const Stereo out = render(writeSidesInstrument(dir), clapGestures());
  REQUIRE(out.left.size() == kFrames);
  // Note 1 (left): 480 Hz, then 2 semitones up; its level stays.
  CHECK(std::fabs(centsBetween(frequency(out.left, 4000, 11000), kSineHz)) < 0.5);
  CHECK(std::fabs(centsBetween(frequency(out.left, 14000, 23000), kSineHz) - kTunedCents) < 0.5);
  CHECK(std::fabs(centsBetween(frequency(out.left, 26000, 33000), kSineHz) - kTunedCents) < 0.5);
  const double level1 = rms(out.left, 4000, 11000);
  REQUIRE(level1 > 0.05);
  CHECK(std::fabs(rms(out.left, 26000, 33000) / level1 - 1.0) < 0.01);
  // Note 2 (right): its pitch stays while note 1 bends; its level follows its CC74 alone.
  CHECK(std::fabs(centsBetween(frequency(out.right, 14000, 23000), kSineHz)) < 0.5);
  const double level2 = rms(out.right, 14000, 23000);
  REQUIRE(level2 > 0.02);
  CHECK(std::fabs(rms(out.right, 26000, 33000) / level2 - 127.0 / 64.0) < 0.01);
  CHECK(std::fabs(rms(out.right, 4000, 11000) / level2 - 1.0) < 0.01);  // before the tuning: the same
}

TEST_CASE("A CLAP note expression renders as the same gesture in MPE", "[clap][expression]") {
  const auto dir = clapScratch("expression-mpe");
  const auto instrument = writeSidesInstrument(dir);
  const Stereo clap = render(instrument, clapGestures());
  const Stereo mpe = render(instrument, mpeGestures());
  REQUIRE(mpe.left.size() == kFrames);
  REQUIRE(peak(mpe.right, 0, kFrames) > 0.05);
  std::size_t first = 0;
  const std::size_t differing = differingFrames(mpe, clap, &first);
  INFO(differing << " frames differ, the first " << first << "; largest difference " << largestDifference(mpe, clap));
  CHECK(differing == 0);
}

TEST_CASE("CLAP volume and pan expressions are the note's own gain and pan", "[clap][expression]") {
  const auto dir = clapScratch("expression-gain");
  const Stereo out = render(writeSidesInstrument(dir),
                            {noteOn(0, 1, 60), noteOn(0, 2, 72), expression(0, 2, CLAP_NOTE_EXPRESSION_BRIGHTNESS, 1.0),
                             expression(12000, 1, CLAP_NOTE_EXPRESSION_VOLUME, 0.5),
                             expression(24000, 2, CLAP_NOTE_EXPRESSION_PAN, 0.0),
                             expression(24000, 1, CLAP_NOTE_EXPRESSION_VOLUME, 0.0)});
  REQUIRE(out.left.size() == kFrames);
  const double left = rms(out.left, 2000, 11000), right = rms(out.right, 2000, 11000);
  REQUIRE(left > 0.05);
  CHECK(std::fabs(rms(out.left, 14000, 23000) / left - 0.5) < 0.005);   // note 1 at half its gain
  CHECK(std::fabs(rms(out.right, 14000, 23000) / right - 1.0) < 0.005);  // note 2 as it was
  // Note 1 silent; note 2 (panned hard right by its region) back to the centre by its own pan.
  const double centreLeft = rms(out.left, 26000, 35000), centreRight = rms(out.right, 26000, 35000);
  CHECK(centreLeft > 0.3 * right);
  CHECK(std::fabs(centreLeft / centreRight - 1.0) < 0.01);
}

TEST_CASE("A CLAP expression finds its note by port, channel and key when it names no note id", "[clap][expression]") {
  const auto dir = clapScratch("expression-key");
  const Stereo out = render(writeSidesInstrument(dir),
                            {noteOn(0, 10, 60), noteOn(0, 11, 72), expression(0, -1, CLAP_NOTE_EXPRESSION_BRIGHTNESS, 1.0, 72),
                             expression(12000, -1, CLAP_NOTE_EXPRESSION_TUNING, -1.0, 60),
                             expression(24000, -1, CLAP_NOTE_EXPRESSION_BRIGHTNESS, 0.5, -1)});  // every note
  REQUIRE(out.left.size() == kFrames);
  CHECK(std::fabs(centsBetween(frequency(out.left, 2000, 11000), kSineHz)) < 0.5);
  CHECK(std::fabs(centsBetween(frequency(out.left, 14000, 23000), kSineHz) + 100.0) < 1.0);
  CHECK(std::fabs(centsBetween(frequency(out.right, 14000, 23000), kSineHz)) < 0.5);
  const double right = rms(out.right, 2000, 11000);
  REQUIRE(right > 0.05);
  CHECK(std::fabs(rms(out.right, 26000, 35000) / right - 0.5) < 0.01);
}

TEST_CASE("MIDI on the MPE note port plays as MPE, as the standalone renders it with its zone", "[clap][mpe]") {
  const auto dir = clapScratch("mpe-port");
  const auto instrument = writeSidesInstrument(dir);
  const std::vector<SongNote> notes{{20, 600, 1, 60, 100}, {40, 640, 2, 72, 90}};
  const std::vector<SongEvent> gestures{{40, {0xB2, 74, 64}}, {240, {0xE1, 0x55, 0x42}}, {480, {0xB2, 74, 127}},
                                        {500, {0xD1, 90, 0}}};
  // The standalone's song configures the zone itself (RPN 6 on channel 1: 15 members).
  std::vector<SongEvent> configured{{0, {0xB0, 101, 0}}, {0, {0xB0, 100, 6}}, {0, {0xB0, 6, 15}}};
  configured.insert(configured.end(), gestures.begin(), gestures.end());
  const auto standaloneDir = dir / "standalone";
  std::filesystem::create_directories(standaloneDir);
  const Stereo reference = renderReference(instrument, writeSong(standaloneDir, notes, configured), dir);
  REQUIRE(reference.left.size() > 30000);
  // The plugin's MPE port gets the member channels' messages alone.
  const auto events = framedEvents(spindle::io::readMidiFile(writeSong(dir, notes, gestures).string()), 48000.0);
  ClapHost host({48000.0, 256, true});
  REQUIRE(host.ok());
  REQUIRE(host.loadState(stateFor(instrument)));
  REQUIRE(host.activate());
  Stereo plugin;
  std::size_t next = 0;
  for (std::size_t done = 0; done < reference.left.size(); done += 256) {
    for (; next < events.size() && events[next].frame < static_cast<int64_t>(done + 256); ++next)
      host.midi(static_cast<uint32_t>(events[next].frame - static_cast<int64_t>(done)), events[next].bytes.data(), 1);
    host.process(256);
    plugin.left.insert(plugin.left.end(), host.left(), host.left() + 256);
    plugin.right.insert(plugin.right.end(), host.right(), host.right() + 256);
  }
  REQUIRE(peak(reference.right, 0, reference.right.size()) > 0.05);
  std::size_t first = 0;
  const std::size_t differing = differingFrames(reference, plugin, &first);
  INFO(differing << " frames differ, the first " << first << "; largest difference "
                 << largestDifference(reference, plugin));
  CHECK(differing == 0);
  // Note 1 (left) bent by its own channel's bend, note 2 (right) not.
  CHECK(std::fabs(centsBetween(frequency(plugin.left, 14000, 23000), kSineHz) -
                  ((0x42 << 7 | 0x55) - 8192) / 8191.0 * 4800.0) < 0.5);
  CHECK(std::fabs(centsBetween(frequency(plugin.right, 14000, 23000), kSineHz)) < 0.5);
}

}  // namespace clap_expression_tests
