#pragma once
// StreamRing: the per-voice ring between the disk thread and the audio thread. It
// carries references to frames, not the frames themselves: each entry is a FrameRun,
// a stretch of the voice's unrolled frames that lies in one place in RAM, in the
// format it is kept in there (core/SampleData.h):
//
//   a decoded block of the block cache   (stream/BlockCache.h; pinned while referenced)
//   the sample's preload                 (a loop that wraps back into it)
//   nowhere                              (left == nullptr: zeros, past the file's end)
//
// The disk thread pushes runs in unrolled order, each starting where the one before
// it ended (an exit starts a new sequence: rt/StreamBank.h); the voice reads frames
// from the runs in place and consumes a run once it has read past it. The disk thread
// pins a block before it pushes a run into it and unpins it only after it has seen
// the run consumed (consumedPosition()), so a block is never evicted or rewritten
// while the voice may still read it:
//
//     disk thread                                              audio thread
//     pin block, push ──► [ run r | run r+1 | run r+2 | ... ] ──► peek(k), read frames
//     unpin runs < consumedPosition() ◄── read_ ────────────────── consume(n)
//
// Counters are free-running 64-bit run counts: readable = write - read, full when
// write - read == kCapacity. The constructor and reset() take a start index so tests
// can cross 2^64.
//
// Memory orders: the producer writes a run (and, before it, the block's frames), then
// publishes it with a release store of write_; the consumer's acquire load of write_
// makes both visible. The consumer's release store of read_ in consume() orders its
// reads of the consumed runs' frames before the producer's acquire load of read_,
// after which the producer may unpin, evict and rewrite the block.
#include <array>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "core/Realtime.h"
#include "core/SampleData.h"
#include "rt/SpscFifo.h"

namespace spindle::rt {

struct FrameRun {
  const void* left = nullptr;   // channel 0's value of unrolled frame `first`; null: zeros
  const void* right = nullptr;  // channel 1's (the same as left for a mono file)
  int64_t first = 0;            // the unrolled frame the run starts at
  int32_t frames = 0;
  SampleFormat format = SampleFormat::Float32;

  int64_t end() const noexcept SPINDLE_REALTIME { return first + frames; }
  // Frames [u, u + n) of the run (first <= u, u + n <= end) as float.
  void read(int64_t u, int n, float* outLeft, float* outRight) const noexcept SPINDLE_REALTIME;
};
static_assert(std::is_trivially_copyable_v<FrameRun>);

class StreamRing {
 public:
  // Runs a voice may have queued: a few blocks' worth, or many cycles of a short loop.
  static constexpr uint64_t kCapacity = 128;

  explicit StreamRing(uint64_t startIndex = 0) noexcept { reset(startIndex); }
  StreamRing(const StreamRing&) = delete;
  StreamRing& operator=(const StreamRing&) = delete;

  // Empties the ring for reuse. Only while neither side touches it (the slot's hand-over
  // through the bank's FIFOs orders it before their next use).
  void reset(uint64_t startIndex = 0) noexcept {
    write_.store(startIndex, std::memory_order_relaxed);
    read_.store(startIndex, std::memory_order_relaxed);
  }

  // ---- producer: the disk thread ----
  bool full() const noexcept SPINDLE_REALTIME {
    return write_.load(std::memory_order_relaxed) - read_.load(std::memory_order_acquire) == kCapacity;
  }
  [[nodiscard]] bool tryPush(const FrameRun& run) noexcept SPINDLE_REALTIME {
    const uint64_t w = write_.load(std::memory_order_relaxed);
    if (w - read_.load(std::memory_order_acquire) == kCapacity) return false;
    runs_[w & (kCapacity - 1)] = run;
    write_.store(w + 1, std::memory_order_release);
    return true;
  }
  // Index of the next run to push.
  uint64_t writePosition() const noexcept SPINDLE_REALTIME { return write_.load(std::memory_order_relaxed); }
  // Runs before this index are consumed: their frames are no longer read.
  uint64_t consumedPosition() const noexcept SPINDLE_REALTIME { return read_.load(std::memory_order_acquire); }
  // The run at `index` (read_ <= index < write_), from the producer's side.
  const FrameRun& pushed(uint64_t index) const noexcept SPINDLE_REALTIME { return runs_[index & (kCapacity - 1)]; }

  // ---- consumer: the audio thread ----
  // One past the newest published run (acquire: its frames are visible).
  uint64_t publishedPosition() const noexcept SPINDLE_REALTIME { return write_.load(std::memory_order_acquire); }
  uint64_t readPosition() const noexcept SPINDLE_REALTIME { return read_.load(std::memory_order_relaxed); }
  // The run at `index`, readPosition() <= index < publishedPosition().
  const FrameRun& peek(uint64_t index) const noexcept SPINDLE_REALTIME { return runs_[index & (kCapacity - 1)]; }
  // Releases the oldest `runs` runs to the producer.
  void consume(uint64_t runs) noexcept SPINDLE_REALTIME {
    read_.store(read_.load(std::memory_order_relaxed) + runs, std::memory_order_release);
  }

 private:
  alignas(kCacheLine) std::atomic<uint64_t> write_{0};
  alignas(kCacheLine) std::atomic<uint64_t> read_{0};
  alignas(kCacheLine) std::array<FrameRun, kCapacity> runs_{};
};

inline void FrameRun::read(int64_t u, int n, float* outLeft, float* outRight) const noexcept SPINDLE_REALTIME {
  if (!left) {
    for (int i = 0; i < n; ++i) outLeft[i] = 0.0f;
    if (outRight) for (int i = 0; i < n; ++i) outRight[i] = 0.0f;
    return;
  }
  const int64_t k = u - first;
  toFloat(valueAt(left, format, k), format, n, outLeft);
  if (outRight) toFloat(valueAt(right, format, k), format, n, outRight);
}

}  // namespace spindle::rt
