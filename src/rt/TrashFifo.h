#pragma once
// TrashFifo<T, Capacity>: objects the audio thread lets go of, deleted elsewhere.
//
// The audio thread may not free memory, so when it drops its last use of a heap
// object (a retired Program, say) it hands the pointer back here, and the control
// thread deletes it in collect(). An SpscFifo of pointers underneath: one producer
// (the audio thread), one consumer (the control thread).
//
// A full FIFO refuses the pointer. The audio thread must then keep the object in use
// and try again later, so it checks hasRoom() before it commits to dropping one (a
// refused command is better than a leak or a free on the audio thread).
#include <cstddef>

#include "core/Realtime.h"
#include "rt/SpscFifo.h"

namespace spindle::rt {

template <typename T, std::size_t Capacity>
class TrashFifo {
 public:
  TrashFifo() = default;
  TrashFifo(const TrashFifo&) = delete;
  TrashFifo& operator=(const TrashFifo&) = delete;
  // Owner, once the audio thread no longer runs: deletes what is still queued.
  ~TrashFifo() { collect(); }

  // Audio thread. True when the next tryRetire() will succeed: the consumer can only
  // make more room, never less.
  bool hasRoom() const noexcept SPINDLE_REALTIME { return fifo_.size() < Capacity; }
  // Audio thread. nullptr is accepted and ignored by collect().
  [[nodiscard]] bool tryRetire(const T* object) noexcept SPINDLE_REALTIME { return fifo_.tryPush(object); }

  // Control thread: deletes every object retired so far; returns how many pointers
  // it took (nullptr included).
  std::size_t collect() {
    std::size_t count = 0;
    const T* object = nullptr;
    while (fifo_.tryPop(object)) {
      delete object;
      ++count;
    }
    return count;
  }

 private:
  SpscFifo<const T*, Capacity> fifo_;
};

}  // namespace spindle::rt
