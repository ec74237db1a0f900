#include <atomic>
#include <thread>

#include "catch.h"
#include "io/LiveStats.h"
#include "io/ProcessTimer.h"
#include "io/Seqlock.h"

namespace live_stats_tests {

using namespace spindle::io;

TEST_CASE("ProcessHistogram: bins by percent of the budget", "[io][stats]") {
  ProcessHistogram h;
  const uint64_t budget = 1'000'000;
  for (int i = 0; i < 98; ++i) h.add(100'000, budget);  // 10%
  h.add(690'000, budget);                                // 69%
  h.add(2'500'000, budget);                              // 250%: far overrun bin
  CHECK(h.cycles == 100);
  CHECK(h.counts[2] == 98);
  CHECK(h.counts[13] == 1);
  CHECK(h.counts[ProcessHistogram::kBins - 1] == 1);
  CHECK(h.overBudget == 1);
  CHECK(h.maxNs == 2'500'000);
  CHECK(h.percentile(0.5) == Approx(15.0));
  CHECK(h.percentile(0.99) == Approx(70.0));
  CHECK(h.percentile(1.0) == Approx(205.0));
}

TEST_CASE("ProcessHistogram: empty", "[io][stats]") {
  ProcessHistogram h;
  CHECK(h.percentile(0.99) == 0.0);
}

TEST_CASE("LatencySummary: totals include the playback latency", "[io][stats]") {
  LatencySummary s;
  NoteLatency n;
  n.eventFrame = 1000;
  n.scheduledFrame = 1000;
  n.firstFrame = 1000;
  n.playbackLatency = 512;
  s.add(n);
  n.eventFrame = 2000;
  n.scheduledFrame = 2256;
  n.firstFrame = 2256;
  s.add(n);
  CHECK(s.notes == 2);
  CHECK(s.minFrames == 512);
  CHECK(s.maxFrames == 768);
  CHECK(s.engineMaxFrames == 0);
}

namespace {
// Every field equals the sequence number: a torn copy would mix two of them.
struct Sample {
  uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;
};
}  // namespace

TEST_CASE("Seqlock: readers never see a torn snapshot under a concurrent writer", "[io][stats][stress]") {
  Seqlock<Sample> lock;
  std::atomic<bool> done{false};
  constexpr uint64_t kWrites = 200'000;
  std::thread writer([&] {
    for (uint64_t i = 1; i <= kWrites; ++i) lock.publish(Sample{i, i, i, i, i, i, i, i});
    done.store(true);
  });
  uint64_t reads = 0, last = 0, torn = 0, backwards = 0;
  while (!done.load() || reads < 1000) {
    Sample s;
    if (!lock.read(s)) continue;
    ++reads;
    if (s.a != s.b || s.a != s.c || s.a != s.d || s.a != s.e || s.a != s.f || s.a != s.g || s.a != s.h) ++torn;
    if (s.a < last) ++backwards;
    last = s.a;
  }
  writer.join();
  CHECK(torn == 0);
  CHECK(backwards == 0);
  Sample final;
  REQUIRE(lock.read(final));
  CHECK(final.h == kWrites);
  CHECK(lock.version() == kWrites);
}

TEST_CASE("formatStats mentions every measure", "[io][stats]") {
  LiveStatsSnapshot s;
  s.sampleRate = 48000.0;
  s.periodFrames = 256;
  const std::string text = formatStats(s);
  for (const char* word : {"xruns", "stream underruns", "note-on latency", "process time", "midi"})
    CHECK(text.find(word) != std::string::npos);
}

}  // namespace live_stats_tests
