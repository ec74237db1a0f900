#include "DelayLink.h"

#include <algorithm>
#include <utility>

namespace spindle::netdelay {

Departures::Departures(DelayShape shape, uint64_t seed)
    : shape_(shape), random_(seed), spread_(-shape.jitter, shape.jitter) {}

Nanos Departures::next(Nanos arrival) {
  const Nanos added = std::max<Nanos>(0, shape_.delay + spread_(random_));
  Nanos departure = arrival + added;
  if (!first_) departure = std::max(departure, last_);
  first_ = false;
  last_ = departure;
  return departure;
}

void DirectionStats::add(Nanos added) {
  min = packets == 0 ? added : std::min(min, added);
  max = packets == 0 ? added : std::max(max, added);
  sum += added;
  ++packets;
}

double DirectionStats::meanMs() const {
  return packets == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(packets) / 1e6;
}

DelayQueue::DelayQueue(DelayShape shape, uint64_t seed, size_t capacity)
    : departures_(shape, seed), capacity_(capacity) {}

bool DelayQueue::push(std::vector<uint8_t> bytes, Nanos arrival) {
  if (packets_.size() >= capacity_) {
    ++stats_.dropped;
    return false;
  }
  packets_.push_back(Packet{std::move(bytes), arrival, departures_.next(arrival)});
  return true;
}

void DelayQueue::pop(Nanos now, bool written) {
  if (written)
    stats_.add(now - packets_.front().arrival);
  else
    ++stats_.dropped;
  packets_.pop_front();
}

}  // namespace spindle::netdelay
