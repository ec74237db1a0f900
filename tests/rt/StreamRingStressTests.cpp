// StreamRing, two threads: a disk-thread producer and an audio-thread consumer move
// millions of frames whose values encode their frame counter; the consumer checks
// every frame it reads, including spans that cross the wrap through the guard.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "StressSupport.h"
#include "catch.h"
#include "rt/StreamRing.h"

using spindle::rt::StreamRing;

namespace {
constexpr int64_t G = StreamRing::kGuardFrames;

// Frame n of channel c. Exact in float: 21 significant bits at most.
float valueOf(uint64_t n, int c) {
  return static_cast<float>(((n * 2654435761u) & 0xFFFFF) + 0x100000 * static_cast<uint64_t>(c));
}

// The disk thread: random chunk sizes, each of the three ways to write.
// Stops early when `stop` is set (the consumer found a bad frame and gave up).
void produce(StreamRing& ring, uint64_t start, uint64_t frames, uint64_t seed, const std::atomic<bool>& stop) {
  spindle::test::Xorshift rng(seed);
  std::vector<float> planar[2], interleaved;
  uint64_t next = start;
  const uint64_t end = start + frames;  // wraps like the counters do
  while (next != end && !stop.load(std::memory_order_relaxed)) {
    const int64_t want = std::min<int64_t>(rng.between(1, ring.capacity() / 2), static_cast<int64_t>(end - next));
    const int64_t n = std::min(want, ring.writableFrames());
    if (n == 0) {
      spindle::test::backOff();
      continue;
    }
    const int channels = ring.channels();
    switch (rng.next() % 3) {
      case 0: {  // straight into the ring, at most up to its end
        const int64_t k = std::min(n, ring.writeContiguous());
        for (int c = 0; c < channels; ++c)
          for (int64_t i = 0; i < k; ++i) ring.writePointer(c)[i] = valueOf(next + static_cast<uint64_t>(i), c);
        ring.commitWrite(k);
        next += static_cast<uint64_t>(k);
        break;
      }
      case 1: {  // planar copy across the wrap
        for (int c = 0; c < channels; ++c) {
          planar[c].resize(static_cast<std::size_t>(n));
          for (int64_t i = 0; i < n; ++i) planar[c][static_cast<std::size_t>(i)] = valueOf(next + static_cast<uint64_t>(i), c);
        }
        const float* src[2] = {planar[0].data(), planar[1].data()};
        next += static_cast<uint64_t>(ring.write(src, n));
        break;
      }
      default: {  // interleaved, as libsndfile delivers it
        interleaved.resize(static_cast<std::size_t>(n * channels));
        for (int64_t i = 0; i < n; ++i)
          for (int c = 0; c < channels; ++c)
            interleaved[static_cast<std::size_t>(i * channels + c)] = valueOf(next + static_cast<uint64_t>(i), c);
        next += static_cast<uint64_t>(ring.writeInterleaved(interleaved.data(), n));
        break;
      }
    }
  }
}

struct ConsumerResult {
  uint64_t mismatches = 0;
  uint64_t spansAcrossWrap = 0;
};

// The audio thread: waits for a random span (readable in one piece), checks it, and
// consumes a random part of it, keeping the rest as "history" it reads again.
ConsumerResult consume(StreamRing& ring, uint64_t start, uint64_t frames, uint64_t seed) {
  spindle::test::Xorshift rng(seed);
  ConsumerResult result;
  const uint64_t end = start + frames;
  const int64_t capacity = ring.capacity();
  while (ring.readPosition() != end && result.mismatches == 0) {
    // Like a voice that needs a whole block: wait until the span it wants is there.
    // The ring holds at most `capacity` frames and the guard G past the wrap.
    const uint64_t from = ring.readPosition();
    const int64_t position = static_cast<int64_t>(from & static_cast<uint64_t>(capacity - 1));
    const int64_t span = std::min({rng.between(1, capacity / 2 + G), capacity, capacity - position + G,
                                   static_cast<int64_t>(end - from)});
    while (ring.readContiguous() < span) spindle::test::backOff();
    if (position + span > capacity) ++result.spansAcrossWrap;
    for (int c = 0; c < 2; ++c) {  // channel 1 of a mono ring aliases channel 0
      const float* p = ring.readPointer(c);
      const int valueChannel = ring.channels() == 1 ? 0 : c;
      for (int64_t i = 0; i < span; ++i)
        if (p[i] != valueOf(from + static_cast<uint64_t>(i), valueChannel)) ++result.mismatches;
    }
    const bool keepHistory = span > 4 && rng.next() % 2 == 0;
    ring.consume(keepHistory ? span - 4 : span);
  }
  return result;
}

void runStress(int channels, int64_t capacity, uint64_t start, uint64_t frames) {
  StreamRing ring(channels, capacity, start);
  std::atomic<bool> stop{false};
  std::thread disk([&] { produce(ring, start, frames, 42 + static_cast<uint64_t>(channels), stop); });
  const ConsumerResult result = consume(ring, start, frames, 99);
  stop = true;
  disk.join();
  INFO("channels " << channels << ", capacity " << capacity << ", start " << start);
  CHECK(result.mismatches == 0);
  CHECK(result.spansAcrossWrap > 0);
  CHECK(ring.readPosition() == start + frames);
  CHECK(ring.readableFrames() == 0);
}
}  // namespace

TEST_CASE("StreamRing: two-thread stress, stereo, counters crossing 2^64", "[rt][ring][stress]") {
  runStress(2, 1024, spindle::test::kNearWrap, 20'000'000);
}

TEST_CASE("StreamRing: two-thread stress, mono, smallest ring", "[rt][ring][stress]") {
  runStress(1, G, 0, 4'000'000);
}
