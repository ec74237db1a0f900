#pragma once
// SpscFifo<T, Capacity>: a bounded single-producer, single-consumer FIFO of small,
// trivially copyable values. Every cross-thread command in Spindle travels in one.
//
// Threads: exactly one thread calls tryPush (the producer) and exactly one thread
// calls tryPop (the consumer); which threads these are is fixed for the FIFO's life.
// Neither call allocates, locks or waits: a full FIFO refuses the push, an empty one
// refuses the pop. Both are safe on the audio thread.
//
// Counters are free-running 64-bit values, so "full" is `write - read == Capacity`
// and never breaks when a counter wraps (2^64 pushes is ~10^10 years at 48 kHz).
// The producer publishes a slot with a release store of `write_`; the consumer reads
// it with an acquire load, and the reverse for `read_`.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "core/Realtime.h"

namespace spindle::rt {

inline constexpr std::size_t kCacheLine = 64;

template <typename T, std::size_t Capacity>
class SpscFifo {
  static_assert(std::is_trivially_copyable_v<T>, "FIFO values must be trivially copyable");
  static_assert(Capacity > 0 && (Capacity & (Capacity - 1)) == 0, "Capacity must be a power of two");

 public:
  explicit SpscFifo(uint64_t startIndex = 0) noexcept : write_(startIndex), read_(startIndex) {}

  // Producer thread only.
  [[nodiscard]] bool tryPush(const T& value) noexcept SPINDLE_REALTIME {
    const uint64_t w = write_.load(std::memory_order_relaxed);
    if (w - read_.load(std::memory_order_acquire) == Capacity) return false;
    slots_[w & (Capacity - 1)] = value;
    write_.store(w + 1, std::memory_order_release);
    return true;
  }

  // Consumer thread only.
  [[nodiscard]] bool tryPop(T& out) noexcept SPINDLE_REALTIME {
    const uint64_t r = read_.load(std::memory_order_relaxed);
    if (write_.load(std::memory_order_acquire) == r) return false;
    out = slots_[r & (Capacity - 1)];
    read_.store(r + 1, std::memory_order_release);
    return true;
  }

  // Either thread; exact only on the consumer's side, a snapshot elsewhere.
  std::size_t size() const noexcept SPINDLE_REALTIME {
    return static_cast<std::size_t>(write_.load(std::memory_order_acquire) -
                                    read_.load(std::memory_order_acquire));
  }
  static constexpr std::size_t capacity() noexcept { return Capacity; }

 private:
  alignas(kCacheLine) std::atomic<uint64_t> write_;
  alignas(kCacheLine) std::atomic<uint64_t> read_;
  alignas(kCacheLine) std::array<T, Capacity> slots_{};
};

}  // namespace spindle::rt
