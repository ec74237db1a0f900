#include "stream/LoopTails.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "stream/AudioFile.h"

namespace spindle::stream {

namespace {

// Puts the reader at `frame`. libsndfile's Ogg Vorbis and Opus seeks are not
// sample-exact (stream/BlockCache.cpp): those decode from frame 0 and discard.
bool atFrame(AudioFileReader& reader, int64_t frame) {
  if (reader.seeksExactly()) return reader.seek(frame);
  if (!reader.seek(0)) return false;
  std::vector<float> scratch(4096);
  for (int64_t at = 0; at < frame;) {
    const int64_t got = reader.readPlanar(scratch.data(), scratch.data() + 2048, std::min<int64_t>(2048, frame - at));
    if (got <= 0) return false;
    at += got;
  }
  return true;
}

// File frames [first, first + frames) of `d`'s file, planar (out[1] stays empty for mono).
bool readFromFile(const SampleData& d, int64_t first, int64_t frames, std::vector<float> (&out)[2], std::string& error) {
  const int channels = d.channels > 1 ? 2 : 1;
  for (int c = 0; c < channels; ++c) out[c].assign(static_cast<std::size_t>(frames), 0.0f);
  const std::unique_ptr<AudioFileReader> reader = AudioFileReader::open(d.path, error);
  if (!reader) return false;
  if (atFrame(*reader, first) &&
      reader->readPlanar(out[0].data(), channels > 1 ? out[1].data() : nullptr, frames) == frames)
    return true;
  error = std::string("cannot read ") + d.path + " at frame " + std::to_string(first) + ": " + reader->lastError();
  return false;
}

// The blended frames alone (LoopTail::frames == 0 when there are none).
LoopTail crossfadeTail(const Region& region, const SampleData& sample, std::string& error) {
  const int64_t x = loopTailFrames(region, sample);
  const LoopPoints loop = loopPoints(region, sample);
  if (x <= 0 || loop.end < sample.framesInRam || !sample.path) return loopTailFromRam(region, sample);
  std::vector<float> fadeOut[2], fadeIn[2];
  if (!readFromFile(sample, loop.end - x + 1, x, fadeOut, error) ||
      !readFromFile(sample, loop.start - x, x, fadeIn, error)) {
    error = "loop_crossfade: " + error;
    return {};
  }
  const bool stereo = sample.channels > 1;
  const float* outs[2] = {fadeOut[0].data(), stereo ? fadeOut[1].data() : fadeOut[0].data()};
  const float* ins[2] = {fadeIn[0].data(), stereo ? fadeIn[1].data() : fadeIn[0].data()};
  return blendLoopTail(loop, x, sample.channels, outs, ins);
}

}  // namespace

LoopTail buildLoopTail(const Region& region, const SampleData& sample, std::string& error) {
  LoopTail tail = crossfadeTail(region, sample, error);
  const int64_t h = loopExitFrames(region, sample);
  if (h <= 0 || !sample.path) return tail;
  const LoopPoints loop = loopPoints(region, sample);
  // Frames past the file's end read as zeros: read only those inside it.
  const int64_t inFile = std::min(h, sample.totalFrames - 1 - loop.end);
  std::vector<float> exit[2];
  std::string why;
  if (!readFromFile(sample, loop.end + 1, inFile, exit, why)) {
    if (error.empty()) error = "loop_sustain: " + why + " (a live release may wait for the disk)";
    return tail;
  }
  for (auto& channel : exit)
    if (!channel.empty()) channel.resize(static_cast<std::size_t>(h), 0.0f);
  tail.loopStart = loop.start;
  tail.loopEnd = loop.end;
  tail.exitFrames = h;
  tail.exitLeft = std::move(exit[0]);
  tail.exitRight = std::move(exit[1]);
  return tail;
}

}  // namespace spindle::stream
