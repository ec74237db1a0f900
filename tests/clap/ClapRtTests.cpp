// process() on a live (realtime render mode) host: streaming voices, note expressions
// and NOTE_END, no allocation and no lock call inside the audio thread's scope (RtGuard
// counts them, tests/support/RtGuard.h).
#include <chrono>
#include <thread>

#include "ClapSong.h"
#include "RtGuard.h"
#include "Skip.h"
#include "catch.h"

using namespace spindle::test;

namespace {

// Every expression of note `id` at `frame`, its values moving with the note.
void expressAll(ClapHost& host, uint32_t frame, int32_t id) {
  const double value = 0.25 + 0.05 * id;
  for (clap_note_expression what : {CLAP_NOTE_EXPRESSION_TUNING, CLAP_NOTE_EXPRESSION_BRIGHTNESS,
                                    CLAP_NOTE_EXPRESSION_PRESSURE, CLAP_NOTE_EXPRESSION_VIBRATO,
                                    CLAP_NOTE_EXPRESSION_EXPRESSION, CLAP_NOTE_EXPRESSION_VOLUME,
                                    CLAP_NOTE_EXPRESSION_PAN})
    host.expression(frame, what, id, -1, -1, -1, value);
}

}  // namespace

TEST_CASE("Live process() with streaming voices neither allocates nor locks", "[clap][rt]") {
  const auto dir = clapScratch("rt");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  ClapHost host({48000.0, 256, false});
  REQUIRE(host.ok());
  REQUIRE(host.loadState(stateFor(instrument)));
  REQUIRE(host.activate());
  const auto events = framedEvents(spindle::io::readMidiFile(song.string()), 48000.0);
  std::vector<float> left;
  left.reserve(48000 * 4);
  resetRtCounts();
  std::size_t next = 0;
  int32_t noteIds = 1;
  std::vector<int32_t> ended;
  ended.reserve(64);
  constexpr int64_t kBlock = 256, kFrames = 48000 * 4;
  for (int64_t done = 0; done < kFrames; done += kBlock) {
    // CLAP notes, each note's expressions at its note-on and 100 frames on, and MIDI; a level
    for (; next < events.size() && events[next].frame < done + kBlock; ++next) {
      const auto frame = static_cast<uint32_t>(events[next].frame - done);
      const int32_t before = noteIds;
      sendEvent(host, events[next], frame, Dialect::ClapNotes, noteIds);
      if (noteIds != before) expressAll(host, frame, before);
    }
    if (done == 48000) host.param(0, param::kLevel, -3.0);
    if (done == 72000) host.param(0, param::kFirstControl, 64.0);
    if (done == 96000) REQUIRE(host.loadState(stateFor(instrument)));  // the loader thread loads meanwhile
    host.process(kBlock, true);
    for (const ClapHost::SentNoteEnd& end : host.noteEnds()) ended.push_back(end.noteId);
    left.insert(left.end(), host.left(), host.left() + kBlock);
    // A live period is 5.3 ms: the disk thread reads in the meantime.
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  const RtCounts counts = rtCounts();
  // The first note sounds until frame 66000 (1100 ticks), far beyond its 4096-frame
  // preload: read from the disk stream.
  CHECK(peak(left, 40000, 48000) > 0.05);
  // The notes whose note-off and 0.2 s release fell in the 4 s (all but the one to
  // 4300 ticks, 215000 frames), each ended once, in the order they ended.
  CHECK(ended == std::vector<int32_t>{2, 1, 4, 3, 6});
  // A sanitizer build counts nothing (RtGuard.h): under RealtimeSanitizer the loop above
  // ran in the audio thread's real-time context, where any allocation or lock aborts the
  // test; the case then reports its skip here, as the rest needs the counts.
  if (!rtGuardCounting()) SPINDLE_SKIP_CASE(rtGuardMode());
  CHECK(counts.allocs == 0);
  CHECK(counts.frees == 0);
  CHECK(counts.locks == 0);

  // The counters see inside the plugin: a load in activate() (parsing, the pool, the
  // Program) allocates hundreds of times.
  ClapHost fresh({48000.0, 256, false});
  REQUIRE(fresh.ok());
  REQUIRE(fresh.loadState(stateFor(instrument)));
  resetRtCounts();
  {
    AudioThreadScope scope;
    REQUIRE(fresh.activate());
  }
  CHECK(rtCounts().allocs > 100);
}
