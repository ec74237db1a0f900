// run() on a live (not freewheeling) host: streaming voices, no allocation and no lock
// call inside the audio thread's scope (RtGuard counts them, tests/support/RtGuard.h).
#include <chrono>
#include <thread>

#include "PluginSong.h"
#include "RtGuard.h"
#include "Skip.h"
#include "catch.h"

namespace plugin_rt_tests {

using namespace spindle::test;

TEST_CASE("Live run() with streaming voices neither allocates nor locks", "[lv2][rt]") {
  const auto dir = lv2Scratch("rt");
  const auto instrument = writeStreamedInstrument(dir);
  const auto song = writeSong(dir);
  Lv2Host host({48000.0, 256, false});
  REQUIRE(host.ok());
  host.setInstrument(instrument.string());
  host.run(0);
  const auto events = framedEvents(spindle::io::readMidiFile(song.string()), 48000.0);
  std::vector<float> left;
  resetRtCounts();
  std::size_t next = 0;
  constexpr int64_t kBlock = 256, kFrames = 48000 * 3;
  for (int64_t done = 0; done < kFrames; done += kBlock) {
    for (; next < events.size() && events[next].frame < done + kBlock; ++next)
      host.midi(static_cast<uint32_t>(events[next].frame - done), events[next].bytes.data(), events[next].size);
    host.run(kBlock, true);
    left.insert(left.end(), host.left(), host.left() + kBlock);
    // A live period is 5.3 ms: the disk thread reads in the meantime.
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  const RtCounts counts = rtCounts();
  // The first note sounds from 24000 frames past its start, far beyond its 4096-frame
  // preload: read from the disk stream.
  CHECK(peak(left, 20000, 24000) > 0.05);
  // A sanitizer build counts nothing (RtGuard.h): under RealtimeSanitizer the loop above
  // ran in the audio thread's real-time context, where any allocation or lock aborts the
  // test; the case then reports its skip here, as the rest needs the counts.
  if (!rtGuardCounting()) SPINDLE_SKIP_CASE(rtGuardMode());
  CHECK(counts.allocs == 0);
  CHECK(counts.frees == 0);
  CHECK(counts.locks == 0);

  // The counters see inside the plugin: its load on the worker (parsing, the pool, the
  // Program) allocates hundreds of times where the host around it allocates a few.
  resetRtCounts();
  {
    AudioThreadScope worker;
    host.setInstrument(instrument.string());
    host.run(0);
  }
  CHECK(rtCounts().allocs > 100);
}

}  // namespace plugin_rt_tests
