// The disk thread driven by a test-side consumer: runs past the preload arrive in
// order, loops are followed (wrapping back into the preload), a loop_sustain exit
// starts a new run sequence at the exit point, compressed files decode incrementally,
// failures complete the stream, slots come back after Release, and a live stream pins
// only the blocks its read-ahead spans.
#include <algorithm>
#include <atomic>
#include <vector>

#include "StreamTestSupport.h"
#include "catch.h"
#include "core/LoopMap.h"
#include "engine/voices/StreamReader.h"
#include "engine/voices/Voice.h"
#include "rt/StreamBank.h"
#include "stream/DiskThread.h"
#include "stream/SamplePool.h"
#include "stream/Streaming.h"

namespace disk_thread_tests {

using namespace spindle;
using spindle::stream::DiskOptions;
using spindle::stream::DiskThread;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;

namespace {
constexpr int64_t kGuard = limits::kGuardFrames;
constexpr int kBlock = 64;

DiskOptions smallReads() {
  DiskOptions options;
  options.readBytes = 16 * 1024;  // 4096 frames a read: many reads, many ring wraps
  options.fifoPriority = 0;
  return options;
}

struct Rig {
  explicit Rig(DiskOptions options = smallReads(), int streams = 4) : bank(streams), disk(bank, std::move(options)) {}
  rt::StreamBank bank;
  DiskThread disk;
};

rt::StreamOrder openOrder(uint32_t slot, const SampleData* data, LoopMap loop, int64_t first, int64_t last) {
  rt::StreamOrder order;
  order.type = rt::StreamOrderType::Open;
  order.slot = slot;
  order.sample = data;
  order.loop = loop;
  order.firstFrame = first;
  order.lastFrame = last;
  return order;
}
}  // namespace

TEST_CASE("a stream delivers every frame past the preload, then guard zeros, then completes", "[stream][disk]") {
  const auto dir = test::scratchDir("disk-plain");
  test::writeTestWav(dir / "long.wav", 2, 50000);
  SamplePool ram(PoolOptions{-1}), head(PoolOptions{1000, 0});
  const SampleData* whole = ram.acquire((dir / "long.wav").string());
  const SampleData* part = head.acquire((dir / "long.wav").string());
  REQUIRE(part->framesInRam == 1000);
  REQUIRE(part->path != nullptr);
  Rig rig;
  const int slot = rig.bank.acquire();
  REQUIRE(slot >= 0);
  rig.bank.post(openOrder(static_cast<uint32_t>(slot), part, LoopMap{}, 1000, 50000 - 1 + kGuard));
  rig.bank.endBlock(kBlock);
  const auto frames = test::drainStream(rig.bank, static_cast<uint32_t>(slot), 50000 - 1000 + kGuard);
  REQUIRE(frames[0].size() == static_cast<std::size_t>(49000 + kGuard));
  int wrong = 0;
  for (int64_t u = 1000; u < 50000 + kGuard; ++u)
    for (int c = 0; c < 2; ++c)
      wrong += frames[c][static_cast<std::size_t>(u - 1000)] != test::inRamFrame(*whole, LoopMap{}, u, c) ? 1 : 0;
  CHECK(wrong == 0);
  CHECK(rig.bank.slot(static_cast<uint32_t>(slot)).complete.load());
  // Decoded once, in whole cache blocks: block 0 from the file's start (its first 1000
  // frames are in RAM too), so the whole file, in ceil(50000 / 8192) = 7 reads.
  CHECK(rig.disk.counters().framesDecoded.load() == 50000);
  CHECK(rig.disk.counters().failures.load() == 0);
  CHECK(rig.disk.counters().reads.load() == 7);
  CHECK(rig.disk.counters().blockMisses.load() == 7);
}

TEST_CASE("a looping stream follows the loop map, wrapping back into the preload", "[stream][disk]") {
  const auto dir = test::scratchDir("disk-loop");
  test::writeTestWav(dir / "loop.wav", 1, 30000);
  SamplePool ram(PoolOptions{-1}), head(PoolOptions{1000, 0});
  const SampleData* whole = ram.acquire((dir / "loop.wav").string());
  const SampleData* part = head.acquire((dir / "loop.wav").string());
  const LoopMap loop{500, 19501, LoopMap::kForever};  // 500..20000, starts inside the preload
  Rig rig;
  const int slot = rig.bank.acquire();
  rig.bank.post(openOrder(static_cast<uint32_t>(slot), part, loop, 1000, LoopMap::kEndless));
  rig.bank.endBlock(kBlock);
  const int64_t count = 100000;  // five cycles
  const auto frames = test::drainStream(rig.bank, static_cast<uint32_t>(slot), count);
  REQUIRE(frames[0].size() == static_cast<std::size_t>(count));
  int wrong = 0;
  for (int64_t u = 1000; u < 1000 + count; ++u)
    wrong += frames[0][static_cast<std::size_t>(u - 1000)] != test::inRamFrame(*whole, loop, u, 0);
  CHECK(wrong == 0);
  CHECK(rig.disk.counters().framesFromRam.load() >= 4 * 500);  // each wrap re-reads 500..999 from RAM
  CHECK_FALSE(rig.bank.slot(static_cast<uint32_t>(slot)).complete.load());
}

TEST_CASE("a loop_sustain exit: the stream follows the new map from the exit point on", "[stream][disk]") {
  const auto dir = test::scratchDir("disk-exit");
  test::writeTestWav(dir / "sus.wav", 2, 40000);
  SamplePool ram(PoolOptions{-1}), head(PoolOptions{1000, 0});
  const SampleData* whole = ram.acquire((dir / "sus.wav").string());
  const SampleData* part = head.acquire((dir / "sus.wav").string());
  const LoopMap looping{500, 2501, LoopMap::kForever};  // 500..3000: the ring holds several cycles
  Rig rig;
  engine::StreamReader reader;
  REQUIRE(reader.open(&rig.bank, part, looping, 1000, LoopMap::kEndless, 1000));
  rig.bank.endBlock(kBlock);
  std::vector<float> left(4096), right(4096);
  int wrong = 0;
  const auto readAndCheck = [&](const LoopMap& map, int64_t from, int64_t to) {
    for (int64_t u = from; u < to;) {
      const int want = static_cast<int>(std::min<int64_t>(4096, to - u));
      reader.advance(u, u + want);
      const int got = reader.copy(u, want, left.data(), right.data());
      for (int k = 0; k < got; ++k)
        wrong += (left[k] != test::inRamFrame(*whole, map, u + k, 0)) +
                 (right[k] != test::inRamFrame(*whole, map, u + k, 1));
      u += got;
      if (got < want) rig.bank.waitUntilReady();
    }
  };
  readAndCheck(looping, 1000, 5000);  // into cycle 1
  rig.bank.prepare(kBlock);          // the runs reach well past the exit point
  LoopMap released = looping;
  released.wraps = released.cycleOf(5000);
  const int64_t exitFrame = released.exitPoint();
  REQUIRE(exitFrame == 500 + 2 * 2501);
  const int64_t last = 39999 + released.wraps * released.loopLength + kGuard;
  reader.exit(released, exitFrame, last);
  rig.bank.endBlock(kBlock);
  readAndCheck(released, 5000, last + 1);
  CHECK(wrong == 0);
  CHECK(reader.complete());
  reader.close();
}

namespace {
struct ExitPlay {
  int shortSpans = 0;  // spans copy() could not fill, in freewheel mode: underruns
  int wrong = 0;       // frames that differ from the all-in-RAM read
  bool complete = false;
};

// Reads like a voice in an offline render: spans of 256 frames with kGuard history
// taps before and look-ahead after, consuming only up to the span's first frame, the
// disk prepared before every block for what a voice may read in it (Engine::
// processWaiting does the same). Released (leaveLoop: the current cycle is the last)
// at unrolled frame `releaseAt`.
ExitPlay playThroughExit(const SampleData& whole, const SampleData* part, LoopMap map, int64_t releaseAt,
                         int64_t lastFrame) {
  const auto streamLast = [lastFrame](const LoopMap& m) {  // as SampleSource::streamLast
    return m.wraps >= LoopMap::kForever ? LoopMap::kEndless : lastFrame + m.wraps * m.loopLength + kGuard;
  };
  Rig rig;
  engine::StreamReader reader;
  REQUIRE(reader.open(&rig.bank, part, map, 1000, streamLast(map), 1000));
  rig.bank.endBlock(256);
  ExitPlay out;
  std::vector<float> left(256 + 2 * kGuard), right(256 + 2 * kGuard);
  const int want = 256 + 2 * kGuard;
  for (int64_t u = 1000 + kGuard;; u += 256) {
    if (u >= releaseAt && map.wraps > map.cycleOf(releaseAt)) {
      map.wraps = map.cycleOf(releaseAt);
      reader.exit(map, map.exitPoint(), streamLast(map));
    }
    if (u - kGuard + want > streamLast(map) + 1) break;
    rig.bank.prepare(256);
    reader.advance(u - kGuard, u - kGuard + want);
    const int got = reader.copy(u - kGuard, want, left.data(), right.data());
    out.shortSpans += got < want;
    for (int k = 0; k < got; ++k)
      out.wrong += (left[static_cast<std::size_t>(k)] != test::inRamFrame(whole, map, u - kGuard + k, 0)) +
                   (right[static_cast<std::size_t>(k)] != test::inRamFrame(whole, map, u - kGuard + k, 1));
    rig.bank.endBlock(256);
  }
  rig.bank.waitUntilReady();
  out.complete = reader.complete();
  reader.close();
  return out;
}
}  // namespace

// Runs the disk pushed past the exit point with the old loop lie between the voice's
// history taps and the runs that follow the exit: the voice skips them (they are valid
// only before exitFrame), reads on from the first run at exitIndex, and consumes them
// once it is past the exit, which gives their blocks back.
TEST_CASE("a loop_sustain exit: the runs of the old loop past the exit point are skipped", "[stream][disk]") {
  const auto dir = test::scratchDir("disk-exit-taps");
  test::writeTestWav(dir / "sus.wav", 2, 40000);
  SamplePool ram(PoolOptions{-1}), head(PoolOptions{1000, 0});
  const SampleData* whole = ram.acquire((dir / "sus.wav").string());
  const SampleData* part = head.acquire((dir / "sus.wav").string());
  // Released near the end of cycle 0 (taken at 2824, the exit point is 3001): the runs
  // reach several cycles of the old loop past the exit point by then.
  const ExitPlay forever = playThroughExit(*whole, part, LoopMap{500, 2501, LoopMap::kForever}, 2701, 39999);
  CHECK(forever.shortSpans == 0);
  CHECK(forever.wrong == 0);
  CHECK(forever.complete);
  // loop_count=3: every run of the stream (13001 frames and the guard) was pushed, and
  // the stream complete, before the release; after it there is more to push than before.
  const ExitPlay counted = playThroughExit(*whole, part, LoopMap{500, 2501, 2}, 1200, 7999);
  CHECK(counted.shortSpans == 0);
  CHECK(counted.wrong == 0);
  CHECK(counted.complete);
}

TEST_CASE("FLAC and Ogg Vorbis stream incrementally and match a whole-file decode", "[stream][disk]") {
  const auto dir = test::scratchDir("disk-compressed");
  const auto format = GENERATE(SF_FORMAT_FLAC | SF_FORMAT_PCM_16, SF_FORMAT_OGG | SF_FORMAT_VORBIS);
  const auto path = dir / ((format & SF_FORMAT_TYPEMASK) == SF_FORMAT_FLAC ? "s.flac" : "s.ogg");
  REQUIRE(test::writeTestCompressed(path, format, 2, 120000));
  SamplePool ram(PoolOptions{-1}), head(PoolOptions{8192, 0});
  const SampleData* whole = ram.acquire(path.string());
  const SampleData* part = head.acquire(path.string());
  REQUIRE(whole != nullptr);
  REQUIRE(part->totalFrames == whole->totalFrames);
  Rig rig;
  const int slot = rig.bank.acquire();
  rig.bank.post(openOrder(static_cast<uint32_t>(slot), part, LoopMap{}, 8192, whole->totalFrames - 1));
  rig.bank.endBlock(kBlock);
  const auto frames = test::drainStream(rig.bank, static_cast<uint32_t>(slot), whole->totalFrames - 8192);
  REQUIRE(static_cast<int64_t>(frames[0].size()) == whole->totalFrames - 8192);
  double worst = 0.0;
  for (int64_t u = 8192; u < whole->totalFrames; ++u)
    for (int c = 0; c < 2; ++c)
      worst = std::max(worst, static_cast<double>(std::abs(frames[c][static_cast<std::size_t>(u - 8192)] - whole->frameAt(c, u))));
  CHECK(worst == 0.0);  // the same decoder from a seek point gives the same floats
  CHECK(rig.disk.counters().reads.load() >= 2);  // incremental: more than one read
}

TEST_CASE("a stream whose file is gone completes at once as a failure", "[stream][disk]") {
  const auto dir = test::scratchDir("disk-missing");
  test::writeTestWav(dir / "gone.wav", 1, 20000);
  SamplePool head(PoolOptions{1000, 0});
  const SampleData* part = head.acquire((dir / "gone.wav").string());
  std::filesystem::remove(dir / "gone.wav");
  Rig rig;
  const int slot = rig.bank.acquire();
  rig.bank.post(openOrder(static_cast<uint32_t>(slot), part, LoopMap{}, 1000, 20000));
  rig.bank.endBlock(kBlock);
  rig.bank.waitUntilReady();
  CHECK(rig.bank.slot(static_cast<uint32_t>(slot)).complete.load());
  const rt::StreamRing& runs = rig.bank.slot(static_cast<uint32_t>(slot)).runs;
  CHECK(runs.publishedPosition() == runs.readPosition());  // no run
  CHECK(rig.disk.counters().failures.load() == 1);
}

TEST_CASE("slots: all in use refuses, Release gives them back", "[stream][disk]") {
  Rig rig(smallReads(), 3);
  std::vector<int> slots;
  for (int i = 0; i < 3; ++i) slots.push_back(rig.bank.acquire());
  CHECK(std::count(slots.begin(), slots.end(), -1) == 0);
  CHECK(rig.bank.acquire() == -1);
  CHECK(rig.bank.slotsInUse() == 3);
  for (int s : slots) {
    rt::StreamOrder release;
    release.type = rt::StreamOrderType::Release;
    release.slot = static_cast<uint32_t>(s);
    rig.bank.post(release);
  }
  rig.bank.endBlock(kBlock);
  rig.bank.waitUntilReady();
  rig.bank.endBlock(kBlock);  // takes the returned slots back
  CHECK(rig.bank.slotsInUse() == 0);
  CHECK(rig.bank.acquire() >= 0);
}

TEST_CASE("read-ahead: a live stream pins the blocks one block past its voice, a waiting render what it asks",
          "[stream][disk]") {
  CHECK(stream::liveAheadFrames(8192, 256, 1.0f) == 8192 + 2 * kGuard);       // a block ahead at normal speed
  CHECK(stream::liveAheadFrames(8192, 256, 32.0f) == 3 * 256 * 32 + 2 * kGuard);  // three periods, five octaves up
  CHECK(stream::liveAheadFrames(8192, 1024, 4.0f) == 3 * 1024 * 4 + 2 * kGuard);  // a longer period reads further
  CHECK(rt::StreamBank::demandFrames(256) == (256 + 2) * 32 + 2 * kGuard);
  CHECK(stream::minCacheBlocks(320, false) == 3 * 320 + 2);

  const auto dir = test::scratchDir("disk-ahead");
  test::writeTestWav(dir / "long.wav", 2, 200000);  // 16-bit stereo: 8192-frame blocks
  SamplePool head(PoolOptions{4096, 0});
  const SampleData* part = head.acquire((dir / "long.wav").string());
  Rig rig;
  const auto slot = static_cast<uint32_t>(rig.bank.acquire());
  rt::StreamSlot& s = rig.bank.slot(slot);
  s.reach.store(0);
  rig.bank.post(openOrder(slot, part, LoopMap{}, 4096, 200000 - 1 + kGuard));
  rig.bank.endBlock(kBlock);
  rig.bank.waitUntilReady();
  // From the stream's first frame (the voice still plays its preload): 4096 + 8256.
  CHECK(s.pushedEnd.load() == 16384);  // whole blocks 0 and 1
  CHECK(rig.disk.pinnedBlocks() == 2);
  // The voice reads on into block 5: the read-ahead follows it, and the runs it has read
  // past, once consumed, give their blocks back.
  const int64_t reach = 5 * 8192 + 100;
  s.reach.store(reach);
  rig.bank.waitUntilReady();
  CHECK(s.pushedEnd.load() >= reach + 8192 + 2 * kGuard);
  CHECK(s.pushedEnd.load() == 7 * 8192);  // runs end at a block's end: up to block 6, 7 was not needed
  while (s.runs.readPosition() != s.runs.publishedPosition() && s.runs.peek(s.runs.readPosition()).end() <= reach)
    s.runs.consume(1);
  rig.bank.waitUntilReady();
  CHECK(rig.disk.pinnedBlocks() == 2);  // blocks 5 and 6
  // A waiting render asks for a block at the highest increment past the reach.
  rig.bank.prepare(1024);
  CHECK(s.pushedEnd.load() >= reach + rt::StreamBank::demandFrames(1024));
  rt::StreamOrder release;
  release.type = rt::StreamOrderType::Release;
  release.slot = slot;
  rig.bank.post(release);
  rig.bank.waitUntilReady();
  CHECK(rig.disk.pinnedBlocks() == 0);  // Release gives every pinned block back
}

}  // namespace disk_thread_tests
