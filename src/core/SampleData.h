#pragma once
// One sample file's audio as the engine reads it: planar float frames in RAM.
//
// Owned by the sample pool (src/stream) and immutable while any Program refers to
// it. `framesInRam` frames from the file's start are in memory: the whole file when
// it is held in RAM, or only its head (the preload) when the rest streams from disk.
//
//   channel[c] - kGuardFrames        channel[c]                 + framesInRam + kGuardFrames
//        | zeros (guard)              | frame 0 ... last frame in RAM | zeros (guard) |
//
// So an interpolator may read limits::kGuardFrames frames before frame 0 and after
// the last frame in RAM without a branch.
#include <cstdint>

namespace spindle {

struct SampleData {
  const float* channel[2] = {nullptr, nullptr};  // mono: both point to the one channel
  int64_t framesInRam = 0;
  int64_t totalFrames = 0;
  int channels = 0;
  double sampleRate = 0.0;
  int64_t loopStart = -1, loopEnd = -1;  // the file's own smpl loop, frames; -1 = none
  int rootKey = -1;                      // the file's smpl unity note (MIDI key); -1 = none
  // A one-cycle generator table (*sine, *saw...) at the rate that plays middle C: it
  // sounds the pitch of its region's pitch_keycenter at that key, as sfizz plays it.
  bool oscillator = false;
  uint32_t id = 0;                       // the pool's index
  // The file the frames past framesInRam stream from (the disk thread opens it);
  // nullptr for generators and samples wholly in RAM. Owned by the sample pool.
  const char* path = nullptr;
  // Where frame framesInRam starts in the file, in bytes, when the loader's decoder
  // could tell (a native FLAC frame boundary); 0 when unknown. The disk thread seeks
  // there without a search (stream/BlockCache.h).
  uint64_t streamByte = 0;
};

}  // namespace spindle
