#pragma once
// One sample file's audio as the engine reads it: planar frames in RAM, kept in the
// file's own sample format (16-bit as 16-bit, 24-bit packed in 3 bytes, float as float)
// and converted to float as a voice reads them: readFrames() below.
//
// Owned by the sample pool (src/stream) and immutable while any Program refers to
// it. `framesInRam` frames from the file's start are in memory: the whole file when
// it is held in RAM, or only its head (the preload) when the rest streams from disk.
//
//   frames[c] - kGuardFrames        frames[c]                  + framesInRam + kGuardFrames
//        | zeros (guard)             | frame 0 ... last frame in RAM | zeros (guard) |
//
// So an interpolator may read limits::kGuardFrames frames before frame 0 and after
// the last frame in RAM without a branch.
//
// The conversions are exact: a 16-bit value v reads as v / 32768 and a 24-bit one as
// v / 8388608, the very floats a whole-file float decode gives (libsndfile and libFLAC
// divide by 2^(bits-1)), so a render from compact frames is bit-identical to one from
// float frames at half (16-bit) or three quarters (24-bit) of the memory.
#include <cstdint>
#include <cstring>

#include "core/Realtime.h"

namespace spindle {

enum class SampleFormat : uint8_t { Float32 = 0, Int16 = 1, Int24 = 2 };

// Bytes of one value (one channel of one frame).
constexpr int bytesPerValue(SampleFormat format) noexcept SPINDLE_REALTIME {
  return format == SampleFormat::Int16 ? 2 : format == SampleFormat::Int24 ? 3 : 4;
}

// The address of value `index` (may be negative, into the guard) of planar storage `base`.
inline const void* valueAt(const void* base, SampleFormat format, int64_t index) noexcept SPINDLE_REALTIME {
  return static_cast<const char*>(base) + index * bytesPerValue(format);
}

// `n` values from `src` (planar storage in `format`) as float into `out`.
inline void toFloat(const void* src, SampleFormat format, int64_t n, float* out) noexcept SPINDLE_REALTIME {
  switch (format) {
    case SampleFormat::Float32:
      std::memcpy(out, src, static_cast<std::size_t>(n) * sizeof(float));
      return;
    case SampleFormat::Int16: {
      const auto* in = static_cast<const int16_t*>(src);
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]) * (1.0f / 32768.0f);
      return;
    }
    case SampleFormat::Int24: {
      const auto* in = static_cast<const uint8_t*>(src);
      for (int64_t i = 0; i < n; ++i, in += 3) {
        // The 3 bytes to the top of an int32, then an arithmetic shift: sign-extended.
        const auto bits = static_cast<uint32_t>(in[0]) << 8 | static_cast<uint32_t>(in[1]) << 16 |
                          static_cast<uint32_t>(in[2]) << 24;
        out[i] = static_cast<float>(static_cast<int32_t>(bits) >> 8) * (1.0f / 8388608.0f);
      }
      return;
    }
  }
}

struct SampleData {
  // Planar frames in `format`; mono: both point to the one channel.
  const void* frames[2] = {nullptr, nullptr};
  SampleFormat format = SampleFormat::Float32;
  int64_t framesInRam = 0;
  int64_t totalFrames = 0;
  int channels = 0;
  double sampleRate = 0.0;
  int64_t loopStart = -1, loopEnd = -1;  // the file's own smpl loop, frames; -1 = none
  int rootKey = -1;                      // the file's smpl unity note (MIDI key); -1 = none
  // A one-cycle generator table (*sine, *saw...) at the rate that plays middle C: it
  // sounds the pitch of its region's pitch_keycenter at that key, as sfizz plays it.
  bool oscillator = false;
  // The first channel as float, for oscillator playback (engine/dsp/OscillatorBank.h):
  // a generator's table, a float file's frames, or a float copy the loader asked for
  // (stream::SamplePool::makeTable) of a compact file held whole; null otherwise.
  const float* table = nullptr;
  uint32_t id = 0;                       // the pool's index
  // The file the frames past framesInRam stream from (the disk thread opens it);
  // nullptr for generators and samples wholly in RAM. Owned by the sample pool.
  const char* path = nullptr;
  // Where frame framesInRam starts in the file, in bytes, when the loader's decoder
  // could tell (a native FLAC frame boundary); 0 when unknown. The disk thread seeks
  // there without a search (stream/BlockCache.h).
  uint64_t streamByte = 0;

  // Frames [first, first + n) of `channel` (0 or 1) as float into `out`; `first` may
  // lie in the guards (zeros) but the run must stay inside storage.
  void readFrames(int channel, int64_t first, int64_t n, float* out) const noexcept SPINDLE_REALTIME {
    toFloat(valueAt(frames[channel], format, first), format, n, out);
  }
  // One value as float (loader-side code and tests; voices read runs).
  float frameAt(int channel, int64_t index) const noexcept SPINDLE_REALTIME {
    float v = 0.0f;
    readFrames(channel, index, 1, &v);
    return v;
  }
  std::size_t bytesPerFrameInRam() const noexcept {
    return static_cast<std::size_t>(bytesPerValue(format) * (channels > 1 ? 2 : 1));
  }
};

}  // namespace spindle
