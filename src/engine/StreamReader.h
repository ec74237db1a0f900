#pragma once
// StreamReader: the audio thread's side of one disk stream (one per voice).
//
// Audio thread only. It owns a slot of the rt::StreamBank while the voice streams:
// open() takes a free slot and orders it filled from unrolled frame `first` on;
// close() hands it back. It never waits (except in freewheel mode, see read()).
//
// Ring counters and unrolled frames (see rt/StreamBank.h):
//
//   counter(u) = base + (u - first)                      u before exitFrame, or no exit
//              = exitCounter + (u - exitFrame)           u at/after exitFrame, once known
//
//   ring:  ... | history taps | frames still to play | ... not yet written
//              ^ readPosition = counter(first span frame)   (consumeBefore)
//
// After exit() (a loop_sustain release) frames at or past exitFrame stay unreadable
// until the disk thread publishes exitCounter, and nothing at or past counter(exitFrame)
// is consumed: frames the disk had written past exitFrame with the old loop are taken
// back from the ring (DiskStream::exit), and exitCounter is where they began.
#include <cstdint>

#include "core/LoopMap.h"
#include "core/Realtime.h"
#include "core/SampleData.h"
#include "rt/StreamBank.h"

namespace spindle::engine {

class StreamReader {
 public:
  // Takes a slot and posts Open. False (and stays closed) when no slot is free.
  bool open(rt::StreamBank* bank, const SampleData* data, const LoopMap& loop, int64_t first,
            int64_t last) noexcept SPINDLE_REALTIME;
  // Posts Exit: the stream follows `loop` from exitFrame on and ends at `last`.
  void exit(const LoopMap& loop, int64_t exitFrame, int64_t last) noexcept SPINDLE_REALTIME;
  // Posts Release; the reader is closed afterwards. Safe when already closed.
  void close() noexcept SPINDLE_REALTIME;

  bool active() const noexcept SPINDLE_REALTIME { return slot_ >= 0; }
  int64_t first() const noexcept SPINDLE_REALTIME { return first_; }
  // The disk thread has delivered all it ever will (the end, or a failed file).
  bool complete() const noexcept SPINDLE_REALTIME;

  // Releases ring frames before unrolled frame `u` (history no longer needed).
  void consumeBefore(int64_t u) noexcept SPINDLE_REALTIME;
  // Pointers to unrolled frames [u, u + count) when the ring holds them as one array.
  bool direct(int64_t u, int count, const float*& left, const float*& right) noexcept SPINDLE_REALTIME;
  // Copies unrolled frames [u, u + count) (stopping at the first missing frame) into
  // left/right; returns the frames copied. In freewheel mode it waits for the disk
  // thread first (offline renders stay bit-identical to all-in-RAM renders). With no
  // disk thread and no rings (StreamBank::readsOnWaitingThread) the frames come from
  // the decoded blocks at once, and direct() and consumeBefore() do nothing.
  int copy(int64_t u, int count, float* left, float* right) noexcept SPINDLE_REALTIME;

 private:
  void pollExit() noexcept SPINDLE_REALTIME;
  // Ring counter of unrolled frame u; false while u lies past an unacknowledged exit.
  bool counterOf(int64_t u, uint64_t& counter) const noexcept SPINDLE_REALTIME;
  // Frames readable from counter c on (0 when c is outside the readable window).
  int64_t availableFrom(uint64_t c) const noexcept SPINDLE_REALTIME;
  int copyAvailable(uint64_t c, int count, float* left, float* right) const noexcept SPINDLE_REALTIME;

  rt::StreamBank* bank_ = nullptr;
  rt::StreamSlot* slotRef_ = nullptr;
  int slot_ = -1;
  bool stereo_ = false;
  int64_t first_ = 0;       // unrolled frame at counter base_
  uint64_t base_ = 0;
  int64_t exitFrame_ = LoopMap::kEndless;
  bool exitPending_ = false;  // Exit posted, exitCounter not seen yet
  uint64_t exitCounter_ = 0;
};

}  // namespace spindle::engine
