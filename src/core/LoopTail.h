#pragma once
// LoopTail: a region's loop_crossfade, blended ahead of time.
//
// Built on the loader thread once the region's sample is loaded (stream/LoopTails.h),
// owned by the Program, read-only on the audio thread. The last `frames` (X) frames of
// every loop cycle that jumps back are replaced by a blend of themselves (fading out)
// and the X frames just before loop_start (fading in), so that playback reaches
// loop_start from frame ls - 1, as if the file had run into the loop's start:
//
//   file:        ... [ls-X .. ls-1] ls ========================= [le-X+1 .. le] ...
//                       fade in  \                                 / fade out
//   played:      ... cycle ..... [ blend(i) for i = 0..X-1 ]  | ls, ls+1 ...  (next cycle)
//
//   blend(i) = (1 - g(i)) * frame(le - X + 1 + i) + g(i) * frame(ls - X + i)
//   g(i)     = sin^2(pi/2 * (i + 1) / X)     (raised cosine; g(X - 1) = 1, g(-1) = 0)
//
// g and 1 - g add up to 1: a loop crossfades a sound with itself, where the two sides
// are correlated and a constant-gain fade keeps the level (an equal-power fade would
// bulge by up to 3 dB). Its slope is 0 at both ends, so the gain itself adds no kink.
// The last blended frame is frame(ls - 1) exactly: the jump lands without a repeat.
// A cycle that does not jump back (the exit after loop_count or a loop_sustain
// release) plays its own frames: engine/voices/SampleSource.h.
//
// The way out of a loop_sustain loop: on a sample only partly in RAM, the release sends
// playback past loop_end, to frames the disk thread reads only once the release has
// reached it. Live, nothing waits for the disk, so a release near the end of a cycle
// would find them missing. The tail then also holds the first H file frames past
// loop_end (exitLeft/exitRight, H = exitFrames = the sample's preload, see
// loopExitFrames), which the voice plays until the stream delivers the rest, as a
// note-on plays its preload:
//
//   file:    ... ls ======= le | le+1 ... le+H | ... streamed ...
//                                 exit frames
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "core/Limits.h"
#include "core/Region.h"
#include "core/SampleData.h"

namespace spindle {

struct LoopTail {
  int64_t loopStart = 0, loopEnd = 0;  // the loop it was built for (file frames, end inclusive)
  int64_t frames = 0;                  // X; 0 = no crossfade
  std::vector<float> left, right;      // the blended frames; right is empty for a mono file

  int64_t exitFrames = 0;              // H; 0 = none (file frames le + 1 .. le + H, zeros past the file)
  std::vector<float> exitLeft, exitRight;

  const float* channel(int c) const noexcept { return c == 1 && !right.empty() ? right.data() : left.data(); }
  const float* exitChannel(int c) const noexcept {
    return c == 1 && !exitRight.empty() ? exitRight.data() : exitLeft.data();
  }
  bool empty() const noexcept { return frames <= 0 && exitFrames <= 0; }
  std::size_t bytes() const noexcept {
    return sizeof(float) * (left.capacity() + right.capacity() + exitLeft.capacity() + exitRight.capacity());
  }
};

// The loop a region plays on a sample: loop_start / loop_end, else the file's own loop,
// the end clamped to the region's last frame. start < 0 or end <= start: no loop.
struct LoopPoints {
  int64_t start = -1, end = -1;
};

inline int64_t lastPlayedFrame(const Region& r, const SampleData& d) noexcept {
  return std::min(r.end >= 0 ? r.end : d.totalFrames - 1, d.totalFrames - 1);
}

inline LoopPoints loopPoints(const Region& r, const SampleData& d) noexcept {
  const int64_t ls = r.loopStart >= 0 ? r.loopStart : d.loopStart;
  const int64_t le = std::min(r.loopEnd >= 0 ? r.loopEnd : d.loopEnd, lastPlayedFrame(r, d));
  return {ls, le};
}

// loop_mode as set, else the file's own loop plays continuously.
inline LoopMode loopModeOf(const Region& r, const SampleData& d) noexcept {
  const bool fileLoop = d.loopStart >= 0 && d.loopEnd > d.loopStart;
  return r.loopModeSet ? r.loopMode : (fileLoop ? LoopMode::LoopContinuous : LoopMode::NoLoop);
}

// Whether a voice of `r` on `d` plays a loop (as engine/voices/Voice.cpp's setupSource decides).
inline bool playsLoop(const Region& r, const SampleData& d) noexcept {
  const LoopMode mode = loopModeOf(r, d);
  return r.count <= 0 && (mode == LoopMode::LoopContinuous || mode == LoopMode::LoopSustain);
}

// H for `r` on `d`: a loop_sustain loop on a sample that streams (only partly in RAM)
// keeps as many frames past loop_end as the sample's preload holds (what covers a
// note-on's disk start-up covers the release's), at most kMaxLoopExitFrames (a preload
// raised for a slow disk is not paid twice per region: these bytes lie outside the
// pool's budget), up to the file's end and the interpolator's look-ahead past it; 0
// when no loop_sustain loop is played or when every frame past loop_end it could need
// is in RAM already.
inline constexpr int64_t kMaxLoopExitFrames = 65536;  // 4x the default live preload

inline int64_t loopExitFrames(const Region& r, const SampleData& d) noexcept {
  if (loopModeOf(r, d) != LoopMode::LoopSustain || !playsLoop(r, d)) return 0;
  if (d.framesInRam <= 0 || d.framesInRam >= d.totalFrames) return 0;
  const LoopPoints loop = loopPoints(r, d);
  if (loop.start < 0 || loop.end <= loop.start) return 0;
  const int64_t h = std::min({d.framesInRam, kMaxLoopExitFrames, d.totalFrames + limits::kGuardFrames - 1 - loop.end});
  return loop.end + h < d.framesInRam ? 0 : std::max<int64_t>(h, 0);
}

// X for `r` on `d`: loop_crossfade seconds at the file's rate, rounded, at most the
// loop's length and at most loop_start (the fade-in needs X frames before it). 0 when
// the region does not loop or has no crossfade.
// Whether the region asks for a loop crossfade at all (in seconds or in frames).
inline bool crossfadesLoop(const Region& r) noexcept { return r.loopCrossfade > 0.0f || r.loopCrossfadeFrames > 0; }

inline int64_t loopTailFrames(const Region& r, const SampleData& d) noexcept {
  if (!crossfadesLoop(r) || d.sampleRate <= 0.0 || !playsLoop(r, d)) return 0;
  const LoopPoints loop = loopPoints(r, d);
  if (loop.start < 0 || loop.end <= loop.start) return 0;
  const auto wanted = r.loopCrossfadeFrames > 0
                          ? r.loopCrossfadeFrames
                          : static_cast<int64_t>(std::llround(static_cast<double>(r.loopCrossfade) * d.sampleRate));
  return std::max<int64_t>(0, std::min({wanted, loop.end - loop.start + 1, loop.start}));
}

// The blend drawn above, from the X frames that fade out (file frames le - X + 1 ..
// le) and the X that fade in (ls - X .. ls - 1), planar, one or two channels.
inline LoopTail blendLoopTail(LoopPoints loop, int64_t x, int channels, const float* const fadeOut[2],
                              const float* const fadeIn[2]) {
  LoopTail tail;
  tail.loopStart = loop.start;
  tail.loopEnd = loop.end;
  tail.frames = x;
  std::vector<float>* outs[2] = {&tail.left, &tail.right};
  for (int c = 0; c < std::min(channels, 2); ++c) {
    outs[c]->resize(static_cast<std::size_t>(x));
    for (int64_t i = 0; i < x; ++i) {
      const double s = std::sin(0.5 * std::numbers::pi * static_cast<double>(i + 1) / static_cast<double>(x));
      const double g = s * s;  // g(X - 1) == 1 exactly: the last frame is frame(ls - 1)
      const double blended = (1.0 - g) * static_cast<double>(fadeOut[c][i]) + g * static_cast<double>(fadeIn[c][i]);
      (*outs[c])[static_cast<std::size_t>(i)] = static_cast<float>(blended);
    }
  }
  return tail;
}

// The tail of `r` built from `d`'s RAM; frames == 0 when there is none or when the
// frames it needs are not all in RAM (stream/LoopTails.h reads those from the file).
inline LoopTail loopTailFromRam(const Region& r, const SampleData& d) {
  const int64_t x = loopTailFrames(r, d);
  const LoopPoints loop = loopPoints(r, d);
  if (x <= 0 || loop.end >= d.framesInRam) return {};
  std::vector<float> frames[2][2];  // [fade out, fade in][channel]
  for (int c = 0; c < 2; ++c) {
    for (auto& run : frames) run[c].resize(static_cast<std::size_t>(x));
    d.readFrames(c, loop.end - x + 1, x, frames[0][c].data());
    d.readFrames(c, loop.start - x, x, frames[1][c].data());
  }
  const float* fadeOut[2] = {frames[0][0].data(), frames[0][1].data()};
  const float* fadeIn[2] = {frames[1][0].data(), frames[1][1].data()};
  return blendLoopTail(loop, x, d.channels, fadeOut, fadeIn);
}

}  // namespace spindle
