#pragma once
// LoopMap: unrolled frames to file frames. Shared by the audio thread (a voice's
// SampleSource) and the disk thread (which fills a voice's StreamRing in the same
// unrolled order), so it lives in core. Pure, allocation-free, any thread.
//
// Position u counts source frames along the path playback takes, with every loop
// cycle laid end to end, so u only ever grows. Until the loop's first wrap, u is the
// file's frame index:
//
//   file:      0 .. offset ...... ls ======= le ............. last
//   unrolled:  u = file frame up to le, then
//              | ls..le | ls..le | ls..le | le+1 .. last        (wraps = 3, then exit)
//              ^ first wrap at u = le + 1
//   frame(u) = ls + (u - ls) % len        while the cycle index (u - ls) / len < wraps
//            = u - wraps * len            after: the last cycle runs on past le
//
// Lowering `wraps` (a loop_sustain release) never changes frame(u) for u before the
// end of cycle `wraps`: exitPoint() is the first unrolled frame whose mapping differs.
#include <cstdint>

#include "core/Realtime.h"

namespace spindle {

struct LoopMap {
  static constexpr int64_t kForever = INT64_MAX / 4;
  static constexpr int64_t kEndless = INT64_MAX / 4;  // a run that never meets a wrap

  int64_t loopStart = 0;
  int64_t loopLength = 0;  // 0: no loop
  int64_t wraps = 0;       // jumps back to loopStart before the exit; kForever: loop forever

  struct Run {
    int64_t frame;   // file frame of the unrolled frame asked for
    int64_t length;  // unrolled frames from there that map to consecutive file frames
  };

  bool looping() const noexcept SPINDLE_REALTIME { return loopLength > 0 && wraps > 0; }

  Run locate(int64_t u) const noexcept SPINDLE_REALTIME {
    if (!looping()) return {u, kEndless};
    const int64_t firstWrap = loopStart + loopLength;  // unrolled index of the first jump back
    if (u < firstWrap) return {u, firstWrap - u};
    const int64_t cycle = (u - loopStart) / loopLength;
    const int64_t inCycle = (u - loopStart) % loopLength;
    if (cycle < wraps) return {loopStart + inCycle, loopLength - inCycle};
    return {u - wraps * loopLength, kEndless};  // the exit cycle runs on past the loop end
  }

  // Cycle index of an unrolled frame: 0 before the first wrap.
  int64_t cycleOf(int64_t u) const noexcept SPINDLE_REALTIME {
    if (loopLength <= 0 || u < loopStart + loopLength) return 0;
    return (u - loopStart) / loopLength;
  }

  // First unrolled frame after the exit cycle's loop end (where a map that kept
  // looping would jump back); kEndless without a loop or while looping forever.
  int64_t exitPoint() const noexcept SPINDLE_REALTIME {
    if (loopLength <= 0 || wraps >= kForever) return kEndless;
    return loopStart + (wraps + 1) * loopLength;
  }
};

}  // namespace spindle
