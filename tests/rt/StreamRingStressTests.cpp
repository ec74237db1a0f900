// StreamRing, two threads, as the disk thread and the audio thread use it: the producer
// fills a block of a small pool with frames whose values encode their unrolled frame,
// "pins" it, pushes runs that point into it, and rewrites a block for new frames only
// once every run into it is consumed (consumedPosition()). The consumer reads every
// frame of every run in place and checks it. A block rewritten under the consumer, or a
// run seen before its frames, shows up as a wrong value (and, under the tsan preset, as
// a race). The counters start near 2^64 and cross it.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "StressSupport.h"
#include "catch.h"
#include "rt/StreamRing.h"

namespace stream_ring_stress_tests {

using spindle::rt::FrameRun;
using spindle::rt::StreamRing;

namespace {
constexpr int kBlockFrames = 256;
constexpr int kBlocks = 8;  // fewer than the runs the ring holds: blocks are reused all the time

// Frame n of channel c. Exact in float: 21 significant bits at most.
float valueOf(int64_t n, int c) {
  return static_cast<float>((static_cast<uint64_t>(n) * 2654435761u & 0xFFFFF) + 0x100000 * static_cast<uint64_t>(c));
}

struct Pool {
  std::array<std::array<float, 2 * kBlockFrames>, kBlocks> frames{};
  std::array<int, kBlocks> pins{};  // producer only
};

// The disk thread: each block holds kBlockFrames frames from `next` on and is cut into
// runs of random lengths; the runs of a block are unpinned as they are consumed.
void produce(StreamRing& ring, Pool& pool, int64_t frames, uint64_t seed, const std::atomic<bool>& stop) {
  spindle::test::Xorshift rng(seed);
  std::vector<int> pinOf(StreamRing::kCapacity, -1);
  uint64_t released = ring.writePosition();
  int64_t next = 0;
  const auto release = [&] {
    for (const uint64_t c = ring.consumedPosition(); released != c; ++released)
      --pool.pins[static_cast<std::size_t>(pinOf[released % StreamRing::kCapacity])];
  };
  while (next < frames && !stop.load(std::memory_order_relaxed)) {
    release();
    const auto free = std::find(pool.pins.begin(), pool.pins.end(), 0);
    if (free == pool.pins.end()) {
      spindle::test::backOff();
      continue;
    }
    const auto b = static_cast<int>(free - pool.pins.begin());
    auto& block = pool.frames[static_cast<std::size_t>(b)];
    for (int i = 0; i < kBlockFrames; ++i)
      for (int c = 0; c < 2; ++c) block[static_cast<std::size_t>(c * kBlockFrames + i)] = valueOf(next + i, c);
    for (int at = 0; at < kBlockFrames;) {
      if (ring.full()) {
        release();
        spindle::test::backOff();
        if (stop.load(std::memory_order_relaxed)) return;
        continue;
      }
      const int n = static_cast<int>(std::min<int64_t>(rng.between(1, 100), kBlockFrames - at));
      FrameRun run;
      run.first = next + at;
      run.frames = n;
      run.left = block.data() + at;
      run.right = block.data() + kBlockFrames + at;
      pinOf[ring.writePosition() % StreamRing::kCapacity] = b;
      ++pool.pins[static_cast<std::size_t>(b)];
      if (!ring.tryPush(run)) return;  // cannot happen: not full, and only this thread pushes
      at += n;
    }
    next += kBlockFrames;
  }
}

struct Consumed {
  int64_t frames = 0, wrong = 0, gaps = 0;
};

// The audio thread: reads a random number of the runs there are, frame by frame in
// place, then consumes them.
Consumed consume(StreamRing& ring, int64_t frames, uint64_t seed) {
  spindle::test::Xorshift rng(seed);
  Consumed out;
  std::vector<float> left(100), right(100);
  while (out.frames < frames) {
    const uint64_t w = ring.publishedPosition(), r = ring.readPosition();
    if (w == r) {
      spindle::test::backOff();
      continue;
    }
    const auto take = static_cast<uint64_t>(rng.between(1, static_cast<int64_t>(w - r)));
    for (uint64_t k = r; k != r + take; ++k) {
      const FrameRun& run = ring.peek(k);
      out.gaps += run.first != out.frames;
      run.read(run.first, run.frames, left.data(), right.data());
      for (int i = 0; i < run.frames; ++i)
        out.wrong += (left[static_cast<std::size_t>(i)] != valueOf(run.first + i, 0)) +
                     (right[static_cast<std::size_t>(i)] != valueOf(run.first + i, 1));
      out.frames = run.end();
    }
    ring.consume(take);
  }
  return out;
}
}  // namespace

TEST_CASE("StreamRing stress: runs into reused blocks read exactly, across 2^64", "[rt][ring][stress]") {
  constexpr int64_t kFrames = 4000000;
  StreamRing ring(spindle::test::kNearWrap);
  Pool pool;
  std::atomic<bool> stop{false};
  std::thread producer([&] { produce(ring, pool, kFrames, 7, stop); });
  const Consumed got = consume(ring, kFrames, 11);
  stop.store(true);
  producer.join();
  CHECK(got.frames == kFrames);
  CHECK(got.wrong == 0);
  CHECK(got.gaps == 0);
  CHECK(ring.readPosition() < spindle::test::kNearWrap);  // the counters crossed 2^64
}

}  // namespace stream_ring_stress_tests
