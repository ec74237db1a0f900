#include "engine/SampleSource.h"

#include <algorithm>
#include <cstring>

#include "core/Limits.h"

namespace spindle::engine {

namespace {
constexpr int64_t kEndless = INT64_MAX / 4;  // a run that never meets a wrap
}

LoopMap::Run LoopMap::locate(int64_t u) const noexcept SPINDLE_REALTIME {
  if (!looping()) return {u, kEndless};
  const int64_t firstWrap = loopStart + loopLength;  // unrolled index of the first jump back
  if (u < firstWrap) return {u, firstWrap - u};
  const int64_t cycle = (u - loopStart) / loopLength;
  const int64_t inCycle = (u - loopStart) % loopLength;
  if (cycle < wraps) return {loopStart + inCycle, loopLength - inCycle};
  return {u - wraps * loopLength, kEndless};  // the exit cycle runs on past the loop end
}

int64_t LoopMap::cycleOf(int64_t u) const noexcept SPINDLE_REALTIME {
  if (loopLength <= 0 || u < loopStart + loopLength) return 0;
  return (u - loopStart) / loopLength;
}

void SampleSource::start(const Setup& setup, const SourceScratch& scratch) noexcept SPINDLE_REALTIME {
  data_ = setup.data;
  scratch_ = scratch;
  loop_ = setup.loop;
  lastFrame_ = setup.lastFrame;
  wholeInRam_ = data_ && data_->framesInRam >= data_->totalFrames;
}

void SampleSource::leaveLoop(int64_t position) noexcept SPINDLE_REALTIME {
  if (!loop_.looping()) return;
  loop_.wraps = std::min(loop_.wraps, loop_.cycleOf(position));
}

int64_t SampleSource::endPosition() const noexcept SPINDLE_REALTIME {
  if (!loop_.looping()) return lastFrame_;
  if (loop_.wraps >= LoopMap::kForever) return INT64_MAX;
  return lastFrame_ + loop_.wraps * loop_.loopLength;
}

SourceSpan SampleSource::read(int64_t first, int count) noexcept SPINDLE_REALTIME {
  if (!data_ || count <= 0) return {};
  const int64_t guard = limits::kGuardFrames;
  const int64_t directEnd = wholeInRam_ ? data_->framesInRam + guard : data_->framesInRam;
  const LoopMap::Run run = loop_.locate(first);
  if (run.length >= count && run.frame >= -guard && run.frame + count <= directEnd) {
    return {data_->channel[0] + run.frame, data_->channel[1] + run.frame, count};
  }
  count = std::min(count, scratch_.capacity);
  int done = 0;
  while (done < count) {
    const LoopMap::Run piece = loop_.locate(first + done);
    const int want = static_cast<int>(std::min<int64_t>(piece.length, count - done));
    const int got = copyRun(piece.frame, want, done);
    done += got;
    if (got < want) break;  // not available yet
  }
  return {scratch_.left, data_->channels > 1 ? scratch_.right : scratch_.left, done};
}

// Copies file frames [fileFrame, fileFrame + frames) to the scratch at index `at`:
// zeros outside the file, and a short count where a partly loaded file runs out.
int SampleSource::copyRun(int64_t fileFrame, int frames, int at) noexcept SPINDLE_REALTIME {
  const int64_t inRam = data_->framesInRam;
  if (!wholeInRam_ && fileFrame + frames > inRam) frames = static_cast<int>(std::max<int64_t>(0, inRam - fileFrame));
  const bool stereo = data_->channels > 1;
  float* outs[2] = {scratch_.left + at, scratch_.right + at};
  const int before = static_cast<int>(std::clamp<int64_t>(-fileFrame, 0, frames));
  const int64_t lo = std::max<int64_t>(fileFrame, 0);
  const int inside = static_cast<int>(std::max<int64_t>(0, std::min(fileFrame + frames, inRam) - lo));
  for (int c = 0; c < (stereo ? 2 : 1); ++c) {
    float* out = outs[c];
    std::fill(out, out + before, 0.0f);
    if (inside > 0) std::memcpy(out + before, data_->channel[c] + lo, sizeof(float) * static_cast<size_t>(inside));
    std::fill(out + before + inside, out + frames, 0.0f);
  }
  return frames;
}

}  // namespace spindle::engine
