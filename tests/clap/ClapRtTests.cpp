// process() on a live (realtime render mode) host: streaming voices, no allocation and
// no lock call inside the audio thread's scope (RtGuard counts them,
// tests/support/RtGuard.h).
#include <chrono>
#include <thread>

#include "ClapSong.h"
#include "RtGuard.h"
#include "Skip.h"
#include "catch.h"

using namespace spindle::test;

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
  constexpr int64_t kBlock = 256, kFrames = 48000 * 4;
  for (int64_t done = 0; done < kFrames; done += kBlock) {
    for (; next < events.size() && events[next].frame < done + kBlock; ++next)  // CLAP notes and MIDI, a level
      sendEvent(host, events[next], static_cast<uint32_t>(events[next].frame - done), Dialect::ClapNotes, noteIds);
    if (done == 48000) host.param(0, param::kLevel, -3.0);
    if (done == 72000) host.param(0, param::kFirstControl, 64.0);
    if (done == 96000) REQUIRE(host.loadState(stateFor(instrument)));  // the loader thread loads meanwhile
    host.process(kBlock, true);
    left.insert(left.end(), host.left(), host.left() + kBlock);
    // A live period is 5.3 ms: the disk thread reads in the meantime.
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  const RtCounts counts = rtCounts();
  // The first note sounds until frame 66000 (1100 ticks), far beyond its 4096-frame
  // preload: read from the disk stream.
  CHECK(peak(left, 40000, 48000) > 0.05);
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
