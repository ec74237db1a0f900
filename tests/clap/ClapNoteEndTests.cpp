// NOTE_END: the plugin tells the host when a note's last voice has ended, with the
// note-on's id, port, channel and key; a note that claimed a note slot frees it then.
#include "ClapExpression.h"
#include "catch.h"

namespace clap_note_end_tests {

using namespace spindle::test;

namespace {

constexpr uint32_t kBlock = 512;

std::unique_ptr<ClapHost> activeHost(const std::filesystem::path& instrument) {
  auto host = std::make_unique<ClapHost>(ClapHostOptions{48000.0, kBlock, true});
  if (!host->ok() || !host->loadState(stateFor(instrument)) || !host->activate()) return nullptr;
  return host;
}

}  // namespace

TEST_CASE("NOTE_END follows a note's last voice, with the note-on's id, port, channel and key", "[clap][note-end]") {
  const auto dir = clapScratch("note-end");
  auto host = activeHost(writeSidesInstrument(dir));
  REQUIRE(host);
  host->note(CLAP_EVENT_NOTE_ON, 10, 7, 0, 60, 0.8);
  host->note(CLAP_EVENT_NOTE_ON, 20, 9, 0, 64, 0.8);  // no region plays key 64: it ends at once
  host->process(kBlock);
  std::vector<ClapHost::SentNoteEnd> ends = host->noteEnds();
  REQUIRE(ends.size() == 1);
  CHECK(ends[0].noteId == 9);
  CHECK(ends[0].port == 0);
  CHECK(ends[0].channel == 0);
  CHECK(ends[0].key == 64);
  CHECK(ends[0].frame == kBlock - 1);
  host->process(kBlock);
  CHECK(host->noteEnds().empty());  // note 7 sounds on (a looped sine)
  host->note(CLAP_EVENT_NOTE_OFF, 100, 7, 0, 60, 0.0);
  // Its 10 ms release (480 frames) ends within the next block.
  std::size_t blocks = 0;
  for (; blocks < 4 && host->noteEnds().empty(); ++blocks) host->process(kBlock);
  ends = host->noteEnds();
  REQUIRE(ends.size() == 1);
  CHECK(blocks == 2);
  CHECK(ends[0].noteId == 7);
  CHECK(ends[0].key == 60);
  host->process(kBlock);
  CHECK(host->noteEnds().empty());  // said once
}

TEST_CASE("Note slots are freed at NOTE_END: more expressive notes than slots, one after another",
          "[clap][note-end][expression]") {
  const auto dir = clapScratch("note-end-slots");
  auto host = activeHost(writeSidesInstrument(dir));
  REQUIRE(host);
  std::vector<double> levels;
  for (int32_t n = 0; n < 24; ++n) {  // engine::kNoteSlots is 16
    const int32_t id = 100 + n;
    host->note(CLAP_EVENT_NOTE_ON, 0, id, 0, 72, 0.8);
    host->expression(0, CLAP_NOTE_EXPRESSION_BRIGHTNESS, id, -1, -1, -1, n % 2 ? 1.0 : 0.5);
    host->process(kBlock);
    host->process(kBlock);
    levels.push_back(rms(std::vector<float>(host->right(), host->right() + kBlock), 0, kBlock));
    CHECK(host->noteEnds().empty());
    host->note(CLAP_EVENT_NOTE_OFF, 0, id, 0, 72, 0.0);
    host->process(kBlock);  // its 10 ms release (480 frames) ends in this block
    const auto ends = host->noteEnds();
    INFO("note " << id);
    REQUIRE(ends.size() == 1);
    CHECK(ends[0].noteId == id);
  }
  REQUIRE(levels[1] > 0.05);
  for (std::size_t n = 0; n < levels.size(); ++n) {
    INFO("note " << n);
    CHECK(std::fabs(levels[n] / levels[1] - (n % 2 ? 1.0 : 0.5)) < 0.01);  // each note its own brightness
  }
}

TEST_CASE("A choke of an expressive note cuts it in its slot", "[clap][note-end][expression]") {
  const auto dir = clapScratch("note-choke");
  std::ofstream(writeSidesInstrument(dir)) << "<region> sample=sine.wav key=72 pitch_keycenter=72 "
                                              "loop_mode=loop_continuous loop_start=0 loop_end=47999 ampeg_release=2\n";
  auto host = activeHost(dir / "sides.sfz");
  REQUIRE(host);
  host->note(CLAP_EVENT_NOTE_ON, 0, 5, 0, 72, 0.8);
  host->expression(0, CLAP_NOTE_EXPRESSION_TUNING, 5, -1, -1, -1, 1.0);
  host->process(kBlock);
  host->note(CLAP_EVENT_NOTE_CHOKE, 0, 5, 0, 72, 0.0);
  host->process(kBlock);
  // CC120's fade (limits::kStealFadeSeconds, 5 ms: 240 frames), not the 2 s release.
  const std::vector<float> block(host->left(), host->left() + kBlock);
  CHECK(peak(block, 0, 100) > 0.05);
  CHECK(peak(block, 300, kBlock) == 0.0);
  const auto ends = host->noteEnds();
  REQUIRE(ends.size() == 1);
  CHECK(ends[0].noteId == 5);
}

}  // namespace clap_note_end_tests
