#pragma once
// Helpers for the disk-streaming tests: long test files with a distinct value in
// every frame, and a consumer that drains a stream's runs the way the audio thread
// does (but waits for the disk between reads, like an offline render).
#include <sndfile.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/LoopMap.h"
#include "core/SampleData.h"
#include "rt/StreamBank.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test {

// 16-bit value of frame i, channel c: distinct over long stretches, never a pattern
// that a wrong offset or a missed loop jump could reproduce.
inline int16_t frameValue(int64_t i, int c) {
  return static_cast<int16_t>(((i * 7919 + c * 104729) % 60001) - 30000);
}

// The frame an all-in-RAM read gives for unrolled frame u of `loop` (zeros past the file).
inline float inRamFrame(const SampleData& whole, const LoopMap& loop, int64_t u, int c) {
  const int64_t f = loop.locate(u).frame;
  return f < whole.totalFrames ? whole.frameAt(c, f) : 0.0f;
}

inline std::vector<int16_t> interleavedFrames(int channels, int64_t frames) {
  std::vector<int16_t> out(static_cast<std::size_t>(frames * channels));
  for (int64_t i = 0; i < frames; ++i)
    for (int c = 0; c < channels; ++c) out[static_cast<std::size_t>(i * channels + c)] = frameValue(i, c);
  return out;
}

inline void writeTestWav(const std::filesystem::path& path, int channels, int64_t frames) {
  writeWav16(path, channels, interleavedFrames(channels, frames), 48000);
}

// FLAC or Ogg Vorbis through libsndfile (the streaming tests compare two decodes of
// the same file, so the writer need not be independent here).
inline bool writeTestCompressed(const std::filesystem::path& path, int format, int channels, int64_t frames) {
  SF_INFO info{};
  info.samplerate = 48000;
  info.channels = channels;
  info.format = format;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  if (!file) return false;
  const std::vector<int16_t> data = interleavedFrames(channels, frames);
  const sf_count_t written = sf_writef_short(file, data.data(), frames);
  sf_close(file);
  return written == frames;
}

// Reads `count` frames of a stream from the consumer's side, run by run (as float),
// consuming each run once copied and telling the disk how far it has read; when no run
// is there it waits for the disk (an offline reader). Returns planar frames; fewer when
// the stream completes early.
inline std::vector<std::vector<float>> drainStream(rt::StreamBank& bank, uint32_t slot, int64_t count) {
  std::vector<std::vector<float>> out(2);
  rt::StreamSlot& s = bank.slot(slot);
  std::vector<float> left, right;
  while (static_cast<int64_t>(out[0].size()) < count) {
    const uint64_t r = s.runs.readPosition();
    if (r == s.runs.publishedPosition()) {
      if (s.complete.load(std::memory_order_acquire) && r == s.runs.publishedPosition()) break;
      bank.waitUntilReady();
      continue;
    }
    const rt::FrameRun& run = s.runs.peek(r);
    const int n = static_cast<int>(std::min<int64_t>(run.frames, count - static_cast<int64_t>(out[0].size())));
    left.resize(static_cast<std::size_t>(n));
    right.resize(static_cast<std::size_t>(n));
    run.read(run.first, n, left.data(), right.data());
    out[0].insert(out[0].end(), left.begin(), left.end());
    out[1].insert(out[1].end(), right.begin(), right.end());
    s.reach.store(run.end(), std::memory_order_relaxed);
    s.runs.consume(1);
  }
  return out;
}

}  // namespace spindle::test
