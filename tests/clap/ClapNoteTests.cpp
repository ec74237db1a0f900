// CLAP note events: each plays at its frame, and a song's notes sent as CLAP notes
// render byte-identical to the same notes in MIDI.
#include <random>

#include "ClapSong.h"
#include "catch.h"

namespace clap_note_tests {

using namespace spindle::test;

namespace {

// The first frame of a block whose level passes `threshold` (frames when none does).
std::size_t firstSounding(const float* frames, std::size_t count, double threshold = 1e-6) {
  for (std::size_t i = 0; i < count; ++i)
    if (std::fabs(double{frames[i]}) > threshold) return i;
  return count;
}

}  // namespace

TEST_CASE("A CLAP note plays at its frame, in any block and past the engine's block", "[clap]") {
  const auto dir = clapScratch("note-frames");
  const auto instrument = writeStepInstrument(dir);
  ClapHost host({48000.0, 1500, true});
  REQUIRE(host.ok());
  REQUIRE(host.loadState(stateFor(instrument)));
  REQUIRE(host.activate());
  for (const uint32_t frame : {0u, 1u, 37u, 255u, 1024u, 1499u}) {
    host.note(CLAP_EVENT_NOTE_ON, frame, static_cast<int32_t>(frame), 0, 60, 0.8);
    host.process(1500);
    INFO("note-on at frame " << frame);
    CHECK(firstSounding(host.left(), 1500) == frame);
    host.note(CLAP_EVENT_NOTE_OFF, 0, static_cast<int32_t>(frame), 0, 60, 0.0);
    host.process(1500);
    host.process(1500);  // the release has ended: silence again
    CHECK(firstSounding(host.left(), 1500) == 1500);
  }
  double latency = -1.0;
  REQUIRE(host.paramValue(param::kLatency, latency));
  CHECK(latency == 0.0);  // the engine's share of note-on latency: sample-accurate
}

TEST_CASE("A song's notes as CLAP note events render byte-identical to the same MIDI", "[clap]") {
  const auto dir = clapScratch("clap-notes");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  const std::size_t frames = 48000 * 5;
  std::mt19937 random(5);
  std::uniform_int_distribution<int> length(1, 512);
  std::vector<int> blocks(4000);
  for (int& b : blocks) b = length(random);
  const auto render = [&](Dialect dialect) {
    ClapHost host({48000.0, 512, true});
    std::size_t n = 0;
    return host.ok() ? renderPlugin(host, instrument, song, frames, [&] { return blocks[n++ % blocks.size()]; }, dialect)
                     : Stereo{};
  };
  const Stereo midi = render(Dialect::Midi);
  const Stereo notes = render(Dialect::ClapNotes);
  REQUIRE(midi.left.size() == frames);
  REQUIRE(peak(midi.left, 0, frames) > 0.05);
  std::size_t first = 0;
  const std::size_t differing = differingFrames(midi, notes, &first);
  INFO(differing << " frames differ, the first " << first);
  CHECK(differing == 0);
}

TEST_CASE("A choked note stops at its frame; a note-off for every key ends them all", "[clap]") {
  const auto dir = clapScratch("choke");
  const auto instrument = writeStepInstrument(dir);
  // A release long enough to hear: a note-off lets the note fade, a choke cuts it.
  std::ofstream(instrument) << "<region> sample=step.wav pitch_keycenter=60 ampeg_attack=0 ampeg_release=1\n";
  ClapHost host({48000.0, 512, true});
  REQUIRE(host.ok());
  REQUIRE(host.loadState(stateFor(instrument)));
  REQUIRE(host.activate());
  host.note(CLAP_EVENT_NOTE_ON, 0, 1, 0, 60, 1.0);
  host.note(CLAP_EVENT_NOTE_ON, 0, 2, 0, 64, 1.0);
  host.process(512);
  host.note(CLAP_EVENT_NOTE_OFF, 100, -1, 0, -1, 0.0);  // every key: both notes release
  host.process(512);
  CHECK(std::fabs(host.left()[511]) > 0.1f);  // releasing, not cut
  host.note(CLAP_EVENT_NOTE_CHOKE, 200, -1, 0, -1, 0.0);
  host.process(512);
  CHECK(std::fabs(host.left()[199]) > 0.1f);
  // CC 120 fades the voices in limits::kStealFadeSeconds (5 ms, 240 frames: silent from
  // frame 440), far shorter than the 1 s release.
  const std::vector<float> block(host.left(), host.left() + 512);
  CHECK(peak(block, 200, 300) > 0.05);
  CHECK(peak(block, 440, 512) == 0.0);
}

}  // namespace clap_note_tests
