#include "stream/LoopTails.h"

#include <memory>
#include <vector>

#include "stream/AudioFile.h"

namespace spindle::stream {

namespace {

// File frames [first, first + frames) of `d`'s file, planar (out[1] stays empty for mono).
bool readFromFile(const SampleData& d, int64_t first, int64_t frames, std::vector<float> (&out)[2], std::string& error) {
  const int channels = d.channels > 1 ? 2 : 1;
  for (int c = 0; c < channels; ++c) out[c].assign(static_cast<std::size_t>(frames), 0.0f);
  const std::unique_ptr<AudioFileReader> reader = AudioFileReader::open(d.path, error);
  if (!reader) return false;
  if (reader->seek(first) && reader->readPlanar(out[0].data(), channels > 1 ? out[1].data() : nullptr, frames) == frames)
    return true;
  error = std::string("loop_crossfade: cannot read ") + d.path + " for the crossfade: " + reader->lastError();
  return false;
}

}  // namespace

LoopTail buildLoopTail(const Region& region, const SampleData& sample, std::string& error) {
  const int64_t x = loopTailFrames(region, sample);
  const LoopPoints loop = loopPoints(region, sample);
  if (x <= 0 || loop.end < sample.framesInRam || !sample.path) return loopTailFromRam(region, sample);
  std::vector<float> fadeOut[2], fadeIn[2];
  if (!readFromFile(sample, loop.end - x + 1, x, fadeOut, error)) return {};
  if (!readFromFile(sample, loop.start - x, x, fadeIn, error)) return {};
  const bool stereo = sample.channels > 1;
  const float* outs[2] = {fadeOut[0].data(), stereo ? fadeOut[1].data() : fadeOut[0].data()};
  const float* ins[2] = {fadeIn[0].data(), stereo ? fadeIn[1].data() : fadeIn[0].data()};
  return blendLoopTail(loop, x, sample.channels, outs, ins);
}

}  // namespace spindle::stream
