// SpscFifo: edge cases, counters across 2^64, and a two-thread sequence stress test.
#include "rt/SpscFifo.h"

#include <atomic>
#include <cstdint>
#include <thread>

#include "StressSupport.h"
#include "catch.h"

namespace spsc_fifo_tests {

using spindle::rt::SpscFifo;
using spindle::test::kNearWrap;

TEST_CASE("SpscFifo: empty refuses pop, full refuses push", "[rt][fifo]") {
  SpscFifo<int, 4> fifo;
  int out = -1;
  CHECK(fifo.size() == 0);
  CHECK_FALSE(fifo.tryPop(out));
  CHECK(out == -1);
  for (int i = 0; i < 4; ++i) REQUIRE(fifo.tryPush(i));  // exactly full
  CHECK(fifo.size() == 4);
  CHECK_FALSE(fifo.tryPush(99));                        // one past
  for (int i = 0; i < 4; ++i) {
    REQUIRE(fifo.tryPop(out));
    CHECK(out == i);
  }
  CHECK_FALSE(fifo.tryPop(out));
  CHECK(fifo.size() == 0);
}

TEST_CASE("SpscFifo: one pop makes room for exactly one push", "[rt][fifo]") {
  SpscFifo<int, 2> fifo;
  REQUIRE(fifo.tryPush(1));
  REQUIRE(fifo.tryPush(2));
  int out = 0;
  REQUIRE(fifo.tryPop(out));
  CHECK(out == 1);
  REQUIRE(fifo.tryPush(3));
  CHECK_FALSE(fifo.tryPush(4));
  REQUIRE(fifo.tryPop(out));
  CHECK(out == 2);
  REQUIRE(fifo.tryPop(out));
  CHECK(out == 3);
}

TEST_CASE("SpscFifo: capacity 1", "[rt][fifo]") {
  SpscFifo<int, 1> fifo;
  int out = 0;
  for (int i = 0; i < 5; ++i) {
    REQUIRE(fifo.tryPush(i));
    CHECK_FALSE(fifo.tryPush(i));
    REQUIRE(fifo.tryPop(out));
    CHECK(out == i);
    CHECK_FALSE(fifo.tryPop(out));
  }
}

TEST_CASE("SpscFifo: counters crossing 2^64 keep order, empty and full", "[rt][fifo]") {
  for (const uint64_t start : {~uint64_t{0} - 2, ~uint64_t{0}, kNearWrap}) {
    SpscFifo<uint64_t, 8> fifo(start);
    uint64_t pushed = 0, popped = 0, out = 0;
    for (int round = 0; round < 5000; ++round) {
      while (fifo.tryPush(pushed)) ++pushed;
      REQUIRE(fifo.size() == 8);
      REQUIRE(pushed - popped == 8);
      // Pop a varying number, so the fill level at the wrap varies too.
      for (int i = 0; i <= round % 8; ++i) {
        REQUIRE(fifo.tryPop(out));
        REQUIRE(out == popped++);
      }
    }
    while (fifo.tryPop(out)) REQUIRE(out == popped++);
    CHECK(popped == pushed);
    CHECK(fifo.size() == 0);
  }
}

namespace {
struct Item {
  uint64_t sequence = 0;
  uint64_t check = 0;  // a function of sequence, catches torn copies
  static uint64_t checkOf(uint64_t s) { return s * 0x9E3779B97F4A7C15ULL ^ 0xA5A5A5A5A5A5A5A5ULL; }
};
}  // namespace

TEST_CASE("SpscFifo: two-thread stress, every item arrives once and in order", "[rt][fifo][stress]") {
  constexpr uint64_t kItems = 5'000'000;
  SpscFifo<Item, 64> fifo(kNearWrap);
  std::atomic<bool> failed{false};

  std::thread producer([&] {
    spindle::test::Xorshift rng(7);
    uint64_t next = 0;
    while (next < kItems && !failed.load()) {  // stops when the consumer gives up
      const int64_t burst = rng.between(1, 100);
      for (int64_t i = 0; i < burst && next < kItems; ++i) {
        if (!fifo.tryPush(Item{next, Item::checkOf(next)})) {
          spindle::test::backOff();
          break;
        }
        ++next;
      }
    }
  });

  uint64_t expected = 0;
  spindle::test::Xorshift rng(11);
  while (expected < kItems && !failed.load()) {
    const int64_t burst = rng.between(1, 100);
    for (int64_t i = 0; i < burst; ++i) {
      Item item;
      if (!fifo.tryPop(item)) {
        spindle::test::backOff();
        break;
      }
      if (item.sequence != expected || item.check != Item::checkOf(expected)) failed = true;
      ++expected;
    }
  }
  producer.join();
  REQUIRE_FALSE(failed.load());
  CHECK(expected == kItems);
  CHECK(fifo.size() == 0);
}

}  // namespace spsc_fifo_tests
