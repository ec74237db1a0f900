#pragma once
// Helpers shared by the two-thread stress tests of tests/rt.
#include <cstdint>
#include <thread>

namespace spindle::test {

// A small, fast, seeded generator (xorshift64*): each thread owns one.
class Xorshift {
 public:
  explicit Xorshift(uint64_t seed) noexcept : state_(seed ? seed : 1) {}
  uint64_t next() noexcept {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }
  // Uniform-enough integer in [lo, hi].
  int64_t between(int64_t lo, int64_t hi) noexcept {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t state_;
};

// Lets the other side run when a FIFO or ring is momentarily full or empty
// (the test machines may have only two cores).
inline void backOff() { std::this_thread::yield(); }

// Start index a few thousand items before 2^64, so stress tests also cross the wrap.
inline constexpr uint64_t kNearWrap = ~uint64_t{0} - 4095;

}  // namespace spindle::test
