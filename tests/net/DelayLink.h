// One direction of spindle-netdelay's link: the packets read from one TUN, in arrival
// order, each with the time it may leave by the other. Single-threaded (the tool's only
// thread); times are nanoseconds of CLOCK_MONOTONIC.
//
// A packet's departure is its arrival plus delay + uniform(-jitter, +jitter), at least
// its arrival, and never before the departure of the packet before it: the jitter moves
// packets later, never past each other, as on a real path. (netem's default reorders
// packets whose jitter crosses; this link never does.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

namespace spindle::netdelay {

using Nanos = int64_t;

struct DelayShape {
  Nanos delay = 0;
  Nanos jitter = 0;
};

// Departure times for one direction, in order.
class Departures {
public:
  Departures(DelayShape shape, uint64_t seed);
  // The departure of a packet that arrived at `arrival` (arrivals never go back).
  Nanos next(Nanos arrival);

private:
  DelayShape shape_;
  std::mt19937_64 random_;
  std::uniform_int_distribution<Nanos> spread_;
  Nanos last_ = 0;
  bool first_ = true;
};

// What one direction carried: packets, and the delay added to each (from its arrival
// to the start of its write to the other TUN).
struct DirectionStats {
  uint64_t packets = 0;
  uint64_t dropped = 0;  // the queue was full, or the TUN refused the write
  Nanos sum = 0;
  Nanos min = 0;
  Nanos max = 0;

  void add(Nanos added);
  double meanMs() const;
};

struct Packet {
  std::vector<uint8_t> bytes;
  Nanos arrival = 0;
  Nanos departure = 0;
};

// The packets of one direction waiting for their departure, oldest first.
class DelayQueue {
public:
  DelayQueue(DelayShape shape, uint64_t seed, size_t capacity);
  // False (and counted as dropped) when `capacity` packets are waiting.
  bool push(std::vector<uint8_t> bytes, Nanos arrival);
  bool due(Nanos now) const { return !packets_.empty() && packets_.front().departure <= now; }
  bool empty() const { return packets_.empty(); }
  Nanos nextDeparture() const { return packets_.front().departure; }
  const Packet& front() const { return packets_.front(); }
  // Removes the oldest packet; `written` says whether the TUN took it at `now`.
  void pop(Nanos now, bool written);
  const DirectionStats& stats() const { return stats_; }

private:
  Departures departures_;
  std::deque<Packet> packets_;
  size_t capacity_;
  DirectionStats stats_;
};

}  // namespace spindle::netdelay
