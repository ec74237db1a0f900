#include <algorithm>
#include <cstdint>
#include <vector>

#include "DelayLink.h"
#include "catch.h"

namespace delay_link_tests {

using spindle::netdelay::DelayQueue;
using spindle::netdelay::DelayShape;
using spindle::netdelay::Departures;
using spindle::netdelay::Nanos;

namespace {
constexpr Nanos kMs = 1'000'000;
constexpr Nanos kUs = 1'000;
}  // namespace

TEST_CASE("spaced packets leave within delay +- jitter, at the delay on average", "[netdelay]") {
  Departures departures(DelayShape{2 * kMs, kMs / 2}, 7);
  Nanos sum = 0, low = 10 * kMs, high = 0;
  const int count = 20000;
  for (int i = 0; i < count; ++i) {
    const Nanos arrival = i * 5 * kMs;  // further apart than twice the jitter
    const Nanos added = departures.next(arrival) - arrival;
    sum += added;
    low = std::min(low, added);
    high = std::max(high, added);
  }
  CHECK(low >= 1500 * kUs);
  CHECK(high <= 2500 * kUs);
  CHECK(low < 1520 * kUs);   // the whole range is used
  CHECK(high > 2480 * kUs);
  CHECK(static_cast<double>(sum) / count == Approx(2.0 * kMs).margin(10 * kUs));
}

TEST_CASE("close packets are never reordered: each leaves at or after the one before", "[netdelay]") {
  Departures departures(DelayShape{1 * kMs, 300 * kUs}, 11);
  Nanos previous = 0;
  int heldBack = 0;
  for (int i = 0; i < 5000; ++i) {
    const Nanos arrival = i * 20 * kUs;  // far closer than the jitter's width
    const Nanos departure = departures.next(arrival);
    REQUIRE(departure >= previous);
    REQUIRE(departure - arrival >= 700 * kUs);
    if (departure - arrival > 1300 * kUs) ++heldBack;
    if (departure == previous) ++heldBack;
    previous = departure;
  }
  CHECK(heldBack > 100);  // jitter without reordering holds packets behind earlier ones
}

TEST_CASE("jitter wider than the delay adds no negative delay", "[netdelay]") {
  Departures departures(DelayShape{200 * kUs, 1 * kMs}, 3);
  int atArrival = 0;
  for (int i = 0; i < 4000; ++i) {
    const Nanos arrival = i * 10 * kMs;
    const Nanos added = departures.next(arrival) - arrival;
    REQUIRE(added >= 0);
    REQUIRE(added <= 1200 * kUs);
    if (added == 0) ++atArrival;
  }
  // uniform(-1 ms, +1 ms) + 0.2 ms is below zero 40 % of the time
  CHECK(atArrival > 1400);
  CHECK(atArrival < 1800);
}

TEST_CASE("the same seed gives the same departures", "[netdelay]") {
  Departures a(DelayShape{kMs, kMs / 4}, 42), b(DelayShape{kMs, kMs / 4}, 42), c(DelayShape{kMs, kMs / 4}, 43);
  int differ = 0;
  for (int i = 0; i < 100; ++i) {
    const Nanos arrival = i * kMs;
    const Nanos da = a.next(arrival);
    CHECK(da == b.next(arrival));
    if (da != c.next(arrival)) ++differ;
  }
  CHECK(differ > 90);
}

TEST_CASE("the queue keeps arrival order, refuses past its capacity and counts what it added", "[netdelay]") {
  DelayQueue queue(DelayShape{kMs, 0}, 1, 3);
  CHECK(queue.push({1}, 0));
  CHECK(queue.push({2}, 100 * kUs));
  CHECK(queue.push({3}, 200 * kUs));
  CHECK_FALSE(queue.push({4}, 300 * kUs));
  CHECK(queue.nextDeparture() == kMs);
  CHECK_FALSE(queue.due(kMs - 1));
  REQUIRE(queue.due(kMs));
  CHECK(queue.front().bytes == std::vector<uint8_t>{1});
  queue.pop(kMs + 50 * kUs, true);       // written 50 us late: 1.05 ms added
  CHECK(queue.front().bytes == std::vector<uint8_t>{2});
  queue.pop(1100 * kUs, false);          // the TUN refused it
  queue.pop(1300 * kUs, true);           // 1.1 ms added
  CHECK(queue.empty());
  const auto& stats = queue.stats();
  CHECK(stats.packets == 2);
  CHECK(stats.dropped == 2);
  CHECK(stats.min == 1050 * kUs);
  CHECK(stats.max == 1100 * kUs);
  CHECK(stats.meanMs() == Approx(1.075));
}

}  // namespace delay_link_tests
