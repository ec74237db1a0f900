#pragma once
// StreamReader: the audio thread's side of one disk stream (one per voice).
//
// Audio thread only. It owns a slot of the rt::StreamBank while the voice streams:
// open() takes a free slot and orders it served from unrolled frame `first` on; close()
// hands it back. It never waits: frames the disk has not pushed yet are missing, and
// the voice plays what it has (a waiting render makes sure it has them all before each
// stretch of frames: rt/StreamBank.h, prepare()).
//
// The frames come as runs (rt/StreamRing.h), references into decoded blocks and the
// preload, read in place (a float run) or converted as they are copied (a compact one):
//
//   runs:   [ consumed ... | run r: history taps | run r+1 ... frames to play | not pushed yet
//                            ^ advance(u) consumes the runs that end at or before u
//
// After exit() (a loop_sustain release) frames at or past exitFrame are read only from
// runs at or after the slot's exitIndex, once the disk has published it; the runs before
// it hold the old map there and are skipped (rt/StreamBank.h).
#include <cstdint>

#include "core/LoopMap.h"
#include "core/Realtime.h"
#include "core/SampleData.h"
#include "rt/StreamBank.h"

namespace spindle::engine {

class StreamReader {
 public:
  // Takes a slot and posts Open: the runs start at unrolled `first` and end at `last`;
  // the voice's reads start at `from`. False (and stays closed) when no slot is free.
  bool open(rt::StreamBank* bank, const SampleData* data, const LoopMap& loop, int64_t first, int64_t last,
            int64_t from) noexcept SPINDLE_REALTIME;
  // Posts Exit: the stream follows `loop` from exitFrame on and ends at `last`.
  void exit(const LoopMap& loop, int64_t exitFrame, int64_t last) noexcept SPINDLE_REALTIME;
  // Posts Release; the reader is closed afterwards. Safe when already closed.
  void close() noexcept SPINDLE_REALTIME;

  bool active() const noexcept SPINDLE_REALTIME { return slot_ >= 0; }
  int64_t first() const noexcept SPINDLE_REALTIME { return first_; }
  // The disk has pushed all it ever will (the end, or a failed file).
  bool complete() const noexcept SPINDLE_REALTIME;

  // Before a read of unrolled frames [u, end): consumes the runs that end at or before
  // u (the voice never reads behind u again) and tells the disk where the reads reach.
  void advance(int64_t u, int64_t end) noexcept SPINDLE_REALTIME;
  // The voice's source frames per output frame, for the disk's read-ahead.
  void setSpeed(float speed) noexcept SPINDLE_REALTIME;
  // Pointers to unrolled frames [u, u + count) when one float run holds them all.
  bool direct(int64_t u, int count, const float*& left, const float*& right) noexcept SPINDLE_REALTIME;
  // Copies unrolled frames [u, u + count) as float into left/right (right unused for
  // mono), stopping at the first frame no run holds yet; returns the frames copied.
  int copy(int64_t u, int count, float* left, float* right) noexcept SPINDLE_REALTIME;

 private:
  // Loads the runs the disk has published (then the exit's index: that order matters,
  // rt/StreamBank.h) and returns one past the newest.
  uint64_t published() noexcept SPINDLE_REALTIME;
  // One past the last frame run `index` may be read for: its end, or exitFrame for a
  // run of the old map after an exit.
  int64_t usableEnd(uint64_t index, const rt::FrameRun& run) const noexcept SPINDLE_REALTIME;

  rt::StreamBank* bank_ = nullptr;
  rt::StreamSlot* slotRef_ = nullptr;
  int slot_ = -1;
  bool stereo_ = false;
  int64_t first_ = 0;  // unrolled frame of the first run
  int64_t exitFrame_ = LoopMap::kEndless;
  bool exitPending_ = false;  // Exit posted, exitIndex not seen yet
  uint64_t exitIndex_ = 0;
};

}  // namespace spindle::engine
