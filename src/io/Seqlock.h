#pragma once
// Seqlock<T>: one writer publishes a small trivially copyable value; any number of
// readers take consistent copies of it. Neither side locks or allocates, and the
// writer never waits: it is safe on the audio thread.
//
// Threads: exactly one writer thread calls publish(); any thread calls read().
//
// The value is stored as words of std::atomic<uint64_t> (relaxed), so a reader that
// overlaps a write reads torn words without a data race, notices the sequence number
// moved and retries. Ordering (Boehm, "Can Seqlocks Get Along with Programming
// Language Memory Models?", 2012):
//   writer: seq = s+1 (relaxed); release fence; words (relaxed); seq = s+2 (release)
//   reader: s0 = seq (acquire); words (relaxed); acquire fence; s1 = seq (relaxed)
// The copy is consistent when s0 == s1 and s0 is even.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/Realtime.h"

namespace spindle::io {

template <typename T>
class Seqlock {
  static_assert(std::is_trivially_copyable_v<T>, "Seqlock values must be trivially copyable");
  static constexpr std::size_t kWords = (sizeof(T) + 7) / 8;

 public:
  // Writer thread only.
  void publish(const T& value) noexcept SPINDLE_REALTIME {
    std::array<uint64_t, kWords> words{};
    std::memcpy(words.data(), &value, sizeof(T));
    const uint64_t s = sequence_.load(std::memory_order_relaxed);
    sequence_.store(s + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    for (std::size_t i = 0; i < kWords; ++i) words_[i].store(words[i], std::memory_order_relaxed);
    sequence_.store(s + 2, std::memory_order_release);
  }

  // Any thread. False (out untouched) only when `attempts` reads all overlapped a write.
  bool read(T& out, int attempts = 1000) const noexcept {
    std::array<uint64_t, kWords> words{};
    for (int a = 0; a < attempts; ++a) {
      const uint64_t s0 = sequence_.load(std::memory_order_acquire);
      if (s0 & 1U) continue;
      for (std::size_t i = 0; i < kWords; ++i) words[i] = words_[i].load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (sequence_.load(std::memory_order_relaxed) != s0) continue;
      std::memcpy(static_cast<void*>(&out), words.data(), sizeof(T));  // T is trivially copyable
      return true;
    }
    return false;
  }

  // Number of completed publishes (any thread).
  uint64_t version() const noexcept { return sequence_.load(std::memory_order_acquire) / 2; }

 private:
  std::atomic<uint64_t> sequence_{0};
  std::array<std::atomic<uint64_t>, kWords> words_{};
};

}  // namespace spindle::io
