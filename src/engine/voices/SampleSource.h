#pragma once
// SampleSource: where a voice gets its sample frames. One per voice. Audio thread.
//
// The voice never indexes a SampleData. It works in UNROLLED frames: position u counts
// source frames along the path playback takes, with every loop cycle laid end to end,
// so u only ever grows. Until the loop's first wrap, u is the file's frame index.
// Wrapping, loop exit and count repeats are the source's job, expressed by a LoopMap
// (core/LoopMap.h, which draws the mapping).
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
// Frames come from RAM (SampleData, planar frames in the file's format with
// limits::kGuardFrames zero frames either side) and, for a sample only partly in RAM,
// from a disk stream:
//
//   unrolled:  offset ............ streamStart ......................... end + guard
//              |<-- RAM (preload) -->|<-- runs (StreamReader: decoded blocks in place) -->|
//
// streamStart is the first unrolled frame whose file frame lies past framesInRam
// (every frame before it is in RAM); from there on every frame comes from the runs the
// disk thread pushes in unrolled order, wraps included, following the same LoopMap. A
// span of float frames that maps to one linear stretch (in RAM, or inside one run) is
// returned in place; anything else (compact frames, a loop wrap, a span across
// streamStart or across two runs) is copied into the scratch, converted to float.
// Missing frames (the disk is late) shorten the span: the voice plays silence for the
// rest and counts an underrun; the runs keep the history taps alive because the source
// consumes runs only up to the span's `first`.
//
// The stream is ordered when the voice starts (at once, from its offset, when the
// offset lies past the preload) or, for a loop_sustain loop held in RAM, when the
// release makes playback leave it; it is released when the voice ends (stop()).
// Without a StreamBank (SourceScratch::streams null) frames past framesInRam are
// simply missing.
//
// loop_crossfade: the region's LoopTail (core/LoopTail.h, blended on the loader thread)
// replaces the last X frames of every cycle that jumps back, whichever way the frames
// came (RAM or runs), so a streamed and an in-RAM voice play the same, and the runs
// keep pointing at plain file frames. A span touching such a window is copied into the
// scratch and patched:
//
//   unrolled:  ... cycle c ........ [W_c .. W_c + X - 1] | cycle c + 1 ...
//                                    tail frames 0..X-1   ^ jump back (c < wraps)
//   W_c = loopStart + (c + 1) * loopLength - X
//
// The exit cycle (c == wraps) plays its own frames. A loop_sustain release that comes
// while the voice already reads the current cycle's window lets that cycle finish
// its blend and jump back once more: the blend is never cut off halfway.
//
// loop_sustain on a streamed loop: after the release, frames past the exit point that
// the stream has no runs for yet (its Exit order needs a disk round; live, nothing waits
// for it) come from the exit frames the same LoopTail keeps in RAM, the first H file
// frames past loop_end; the stream takes over where it holds frames:
//
//   unrolled:  ... cycle c (the last) ... le | exitPoint .. exitPoint + H - 1 | ...
//                                           ^ exit frames while the runs lack them
#include <cstdint>

#include "core/LoopMap.h"
#include "core/LoopTail.h"
#include "core/Realtime.h"
#include "core/SampleData.h"
#include "engine/voices/StreamReader.h"
#include "rt/StreamBank.h"

namespace spindle::engine {

// The unrolled-frame map lives in core: the disk thread follows it too.
using LoopMap = spindle::LoopMap;

struct SourceSpan {
  const float* left = nullptr;
  const float* right = nullptr;  // == left for a mono file
  int count = 0;                 // frames available from `first`
};

// What every voice's source shares: the scratch that copied spans are assembled in,
// and the disk streams.
struct SourceScratch {
  float* left = nullptr;
  float* right = nullptr;
  int capacity = 0;  // frames; read() never asks for more
  rt::StreamBank* streams = nullptr;  // null: frames past framesInRam are missing
};

class SampleSource {
 public:
  struct Setup {
    const SampleData* data = nullptr;
    int64_t lastFrame = 0;  // last file frame played (region end), inclusive
    LoopMap loop;
    int64_t offset = 0;  // first file frame played (the stream starts from here at the latest)
    const LoopTail* tail = nullptr;  // loop_crossfade; used only when `loop` is the loop it was built for
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
  // Audio thread, when the voice ends: releases the stream, if any.
  void stop() noexcept SPINDLE_REALTIME;
  bool streaming() const noexcept SPINDLE_REALTIME { return stream_.active(); }
  // The voice's source frames per output frame now (the disk's read-ahead follows it).
  void setSpeed(float speed) noexcept SPINDLE_REALTIME { stream_.setSpeed(speed); }
  // Frames are missing and none will come: no stream could be opened (no free slot)
  // or the disk thread gave up on the file. The voice should end (with a fade).
  bool starved() const noexcept SPINDLE_REALTIME;

 private:
  SourceSpan readFrames(int64_t first, int count) noexcept SPINDLE_REALTIME;
  SourceSpan readRam(int64_t first, int count) noexcept SPINDLE_REALTIME;
  int64_t tailStart(int64_t cycle) const noexcept SPINDLE_REALTIME;
  SourceSpan blendTail(int64_t first, SourceSpan span) noexcept SPINDLE_REALTIME;
  int copyRam(int64_t first, int count) noexcept SPINDLE_REALTIME;
  int copyExit(int64_t first, int count, int at) noexcept SPINDLE_REALTIME;
  void openStream(int64_t from) noexcept SPINDLE_REALTIME;
  int64_t streamStart(int64_t from) const noexcept SPINDLE_REALTIME;
  int64_t streamLast() const noexcept SPINDLE_REALTIME;

  // File frames [0, readableEnd_) hold data; a file wholly in RAM also reads its
  // trailing guard zeros and, past them, silence.
  int copyRun(int64_t fileFrame, int frames, int at) noexcept SPINDLE_REALTIME;

  const SampleData* data_ = nullptr;
  SourceScratch scratch_;
  LoopMap loop_;
  const LoopTail* tail_ = nullptr;  // null: no loop_crossfade on this voice's loop
  const LoopTail* exit_ = nullptr;  // null: no exit frames kept for this voice's loop
  int64_t lastFrame_ = 0;
  bool wholeInRam_ = true;
  rt::StreamBank* bank_ = nullptr;
  StreamReader stream_;
  bool needsStream_ = false;  // frames past the preload will be read
};

}  // namespace spindle::engine
