#pragma once
// SampleSource: where a voice gets its sample frames. One per voice. Audio thread.
//
// The voice never indexes a SampleData. It works in UNROLLED frames: position u counts
// source frames along the path playback takes, with every loop cycle laid end to end,
// so u only ever grows. Until the loop's first wrap, u is the file's frame index.
// Wrapping, loop exit and count repeats are the source's job, expressed by a LoopMap:
//
//   file:      0 .. offset ...... ls ======= le ............. last
//   unrolled:  u = file frame up to le, then
//              | ls..le | ls..le | ls..le | le+1 .. last        (wraps = 3, then exit)
//              ^ first wrap at u = le + 1
//   frame(u) = ls + (u - ls) % len        while the cycle index (u - ls) / len <= wraps
//            = u - wraps * len            after: the last cycle runs on past le
//
// The voice asks for a SPAN: the unrolled frames [first, first + count), with `first`
// already including the interpolator's history taps (it may be negative: frames before
// the file's start read as zeros). The source answers with planar pointers to `count`
// contiguous frames, or fewer when the frames are not available yet; the voice plays
// what it got and counts an underrun for the rest. A span is valid until the next
// read() of any source (the copy scratch is shared by all voices).
//
//   span.left[0]             span.left[k] = unrolled frame first + k
//   |<----------------------- span.count ------------------------->|
//   | history taps | frames the voice renders this chunk | look-ahead taps |
//
// Today the frames come from RAM (SampleData, planar float with limits::kGuardFrames
// zero frames either side). A span that maps to one linear stretch of the file is
// returned in place; one that crosses a loop wrap, or reaches past the guard, is
// copied into the scratch. Frames past SampleData::framesInRam of a file that is not
// wholly in RAM are "not available": the span stops there.
//
// The next issue adds a StreamRing (planar, power-of-two, guard frames mirrored past
// its end) for frames past framesInRam, filled by the disk thread in unrolled order.
// It plugs in behind read(): a span past the preload is a pointer into the ring, which
// is already contiguous across its wrap; an empty ring answers with count 0. Because
// ring frames are unrolled, the disk thread follows the same LoopMap, and the ring
// source must keep the history taps alive by consuming only up to `first`.
#include <cstdint>

#include "core/Realtime.h"
#include "core/SampleData.h"

namespace spindle::engine {

// Maps unrolled frames to file frames (see the diagram above).
struct LoopMap {
  static constexpr int64_t kForever = INT64_MAX / 4;

  int64_t loopStart = 0;
  int64_t loopLength = 0;  // 0: no loop
  int64_t wraps = 0;       // jumps back to loopStart before the exit; kForever: loop forever

  struct Run {
    int64_t frame;   // file frame of the unrolled frame asked for
    int64_t length;  // unrolled frames from there that map to consecutive file frames
  };
  Run locate(int64_t unrolled) const noexcept SPINDLE_REALTIME;
  // Cycle index of an unrolled frame: 0 before the first wrap.
  int64_t cycleOf(int64_t unrolled) const noexcept SPINDLE_REALTIME;
  bool looping() const noexcept SPINDLE_REALTIME { return loopLength > 0 && wraps > 0; }
};

struct SourceSpan {
  const float* left = nullptr;
  const float* right = nullptr;  // == left for a mono file
  int count = 0;                 // frames available from `first`
};

// Scratch that spans crossing a wrap are assembled in; shared by every voice.
struct SourceScratch {
  float* left = nullptr;
  float* right = nullptr;
  int capacity = 0;  // frames; read() never asks for more
};

class SampleSource {
 public:
  struct Setup {
    const SampleData* data = nullptr;
    int64_t lastFrame = 0;  // last file frame played (region end), inclusive
    LoopMap loop;
  };

  // Audio thread, at voice start.
  void start(const Setup& setup, const SourceScratch& scratch) noexcept SPINDLE_REALTIME;
  // Planar frames [first, first + count) of the unrolled stream, or a shorter span.
  SourceSpan read(int64_t first, int count) noexcept SPINDLE_REALTIME;
  // loop_sustain release: finish the cycle holding `position`, then run on past the
  // loop end instead of wrapping again.
  void leaveLoop(int64_t position) noexcept SPINDLE_REALTIME;
  // Unrolled index of the last frame to play; INT64_MAX while looping forever.
  int64_t endPosition() const noexcept SPINDLE_REALTIME;
  int channels() const noexcept SPINDLE_REALTIME { return data_ ? data_->channels : 0; }
  const LoopMap& loop() const noexcept { return loop_; }

 private:
  // File frames [0, readableEnd_) hold data; a file wholly in RAM also reads its
  // trailing guard zeros and, past them, silence.
  int copyRun(int64_t fileFrame, int frames, int at) noexcept SPINDLE_REALTIME;

  const SampleData* data_ = nullptr;
  SourceScratch scratch_;
  LoopMap loop_;
  int64_t lastFrame_ = 0;
  bool wholeInRam_ = true;
};

}  // namespace spindle::engine
