#include "engine/voices/SampleSource.h"

#include <algorithm>
#include <cstring>

#include "core/Limits.h"

namespace spindle::engine {

namespace {
constexpr int64_t kGuard = limits::kGuardFrames;
}

void SampleSource::start(const Setup& setup, const SourceScratch& scratch) noexcept SPINDLE_REALTIME {
  stop();
  data_ = setup.data;
  scratch_ = scratch;
  loop_ = setup.loop;
  lastFrame_ = setup.lastFrame;
  const LoopTail* t = setup.tail;
  const bool tailFits = t && loop_.looping() && t->frames <= loop_.loopLength && loop_.loopStart == t->loopStart &&
                        loop_.loopLength == t->loopEnd - t->loopStart + 1;
  tail_ = tailFits && t->frames > 0 ? t : nullptr;
  const bool exitFits = t && loop_.looping() && t->exitFrames > 0 && loop_.loopStart == t->loopStart &&
                        loop_.loopStart + loop_.loopLength - 1 == t->loopEnd;
  exit_ = exitFits ? t : nullptr;
  wholeInRam_ = data_ && data_->framesInRam >= data_->totalFrames;
  bank_ = scratch.streams;
  if (!wholeInRam_ && bank_) openStream(setup.offset - kGuard);  // history taps before the offset
}

void SampleSource::stop() noexcept SPINDLE_REALTIME {
  stream_.close();
  needsStream_ = false;
}

bool SampleSource::starved() const noexcept SPINDLE_REALTIME {
  return needsStream_ && (!stream_.active() || stream_.complete());
}

void SampleSource::leaveLoop(int64_t position) noexcept SPINDLE_REALTIME {
  if (!loop_.looping()) return;
  int64_t keep = loop_.cycleOf(position);
  if (tail_ && position + kGuard >= tailStart(keep)) ++keep;  // inside the blend: finish it (SampleSource.h)
  const int64_t wraps = std::min(loop_.wraps, keep);
  if (wraps == loop_.wraps) return;
  loop_.wraps = wraps;
  if (stream_.active()) {
    stream_.exit(loop_, loop_.exitPoint(), streamLast());
  } else if (!wholeInRam_ && bank_ && !needsStream_) {
    openStream(position - kGuard);  // a loop held in RAM: the way out may lead past the preload
  }
}

int64_t SampleSource::endPosition() const noexcept SPINDLE_REALTIME {
  if (!loop_.looping()) return lastFrame_;
  if (loop_.wraps >= LoopMap::kForever) return INT64_MAX;
  return lastFrame_ + loop_.wraps * loop_.loopLength;
}

// First unrolled frame at or after `from` whose file frame is past the preload;
// kEndless when playback never leaves RAM (a loop inside the preload, forever).
int64_t SampleSource::streamStart(int64_t from) const noexcept SPINDLE_REALTIME {
  const int64_t inRam = data_->framesInRam;
  if (!loop_.looping()) return std::max(from, inRam);
  const int64_t loopEnd = loop_.loopStart + loop_.loopLength - 1;
  if (loopEnd >= inRam) return std::max(from, inRam);  // `from` never lies past the loop end here
  if (loop_.wraps >= LoopMap::kForever) return LoopMap::kEndless;
  return std::max(from, inRam + loop_.wraps * loop_.loopLength);  // on the exit cycle
}

// Last unrolled frame the voice may read: its end plus the interpolator's look-ahead.
int64_t SampleSource::streamLast() const noexcept SPINDLE_REALTIME {
  return std::min(endPosition(), LoopMap::kEndless) + kGuard;
}

void SampleSource::openStream(int64_t from) noexcept SPINDLE_REALTIME {
  const int64_t first = streamStart(from);
  if (first >= LoopMap::kEndless || first > streamLast()) return;
  needsStream_ = true;
  stream_.open(bank_, data_, loop_, first, streamLast(), from);  // no free slot: starved() says so
}

SourceSpan SampleSource::read(int64_t first, int count) noexcept SPINDLE_REALTIME {
  const SourceSpan span = readFrames(first, count);
  if (!tail_ || span.count <= 0) return span;
  const int64_t cycle = loop_.cycleOf(std::max<int64_t>(first, 0));
  if (cycle >= loop_.wraps || tailStart(cycle) >= first + span.count) return span;
  return blendTail(first, span);
}

// Unrolled index of the first blended frame of `cycle` (its last X frames).
int64_t SampleSource::tailStart(int64_t cycle) const noexcept SPINDLE_REALTIME {
  return loop_.loopStart + (cycle + 1) * loop_.loopLength - tail_->frames;
}

// The span in the scratch with every frame in a jumping cycle's window replaced by
// the tail's. A span may hold several windows when the loop is shorter than it.
SourceSpan SampleSource::blendTail(int64_t first, SourceSpan span) noexcept SPINDLE_REALTIME {
  const int channels = data_->channels > 1 ? 2 : 1;
  float* outs[2] = {scratch_.left, scratch_.right};
  if (span.left != scratch_.left) {
    span.count = std::min(span.count, scratch_.capacity);
    const auto bytes = sizeof(float) * static_cast<size_t>(span.count);
    std::memcpy(scratch_.left, span.left, bytes);
    if (channels > 1) std::memcpy(scratch_.right, span.right, bytes);
  }
  const int64_t end = first + span.count;
  for (int64_t c = loop_.cycleOf(std::max<int64_t>(first, 0)); c < loop_.wraps && tailStart(c) < end; ++c) {
    const int64_t w = tailStart(c);
    const int64_t from = std::max(first, w), to = std::min(end, w + tail_->frames);
    for (int ch = 0; ch < channels && from < to; ++ch) {
      const float* blended = tail_->channel(ch) + (from - w);
      std::memcpy(outs[ch] + (from - first), blended, sizeof(float) * static_cast<size_t>(to - from));
    }
  }
  return {scratch_.left, channels > 1 ? scratch_.right : scratch_.left, span.count};
}

// The frames as the file (RAM or runs) holds them, before any loop_crossfade.
SourceSpan SampleSource::readFrames(int64_t first, int count) noexcept SPINDLE_REALTIME {
  if (!data_ || count <= 0) return {};
  const int64_t ramEnd = stream_.active() ? stream_.first() : LoopMap::kEndless;
  stream_.advance(first, first + count);  // also while the preload plays: the disk keeps ahead of it
  if (first + count <= ramEnd) return readRam(first, count);
  const float* left = nullptr;
  const float* right = nullptr;
  if (first >= ramEnd && stream_.direct(first, count, left, right)) return {left, right, count};
  count = std::min(count, scratch_.capacity);
  int done = 0;
  if (first < ramEnd) {
    const int inRam = static_cast<int>(std::min<int64_t>(ramEnd - first, count));
    done = copyRam(first, inRam);
    if (done < inRam) count = done;
  }
  while (done < count) {
    done += stream_.copy(first + done, count - done, scratch_.left + done, scratch_.right + done);
    const int held = done < count ? copyExit(first + done, count - done, done) : 0;
    if (held <= 0) break;
    done += held;
  }
  return {scratch_.left, data_->channels > 1 ? scratch_.right : scratch_.left, done};
}

// After a loop_sustain release, unrolled frames [first, first + count) from the exit
// frames kept in RAM (core/LoopTail.h) to the scratch at `at`, up to their end; 0 when
// `first` is not among them. The stream holds the same file frames once it delivers.
int SampleSource::copyExit(int64_t first, int count, int at) noexcept SPINDLE_REALTIME {
  const int64_t exitPoint = loop_.exitPoint();
  if (!exit_ || exitPoint >= LoopMap::kEndless || first < exitPoint || first - exitPoint >= exit_->exitFrames) return 0;
  const int64_t k = first - exitPoint;
  const int frames = static_cast<int>(std::min<int64_t>(count, exit_->exitFrames - k));
  float* outs[2] = {scratch_.left + at, scratch_.right + at};
  for (int c = 0; c < (data_->channels > 1 ? 2 : 1); ++c)
    std::memcpy(outs[c], exit_->exitChannel(c) + k, sizeof(float) * static_cast<size_t>(frames));
  return frames;
}

// A span from RAM: in place when it maps to one linear stretch of float frames, else
// copied (compact frames are converted as they are copied: core/SampleData.h).
SourceSpan SampleSource::readRam(int64_t first, int count) noexcept SPINDLE_REALTIME {
  const int64_t directEnd = wholeInRam_ ? data_->framesInRam + kGuard : data_->framesInRam;
  const LoopMap::Run run = loop_.locate(first);
  if (data_->format == SampleFormat::Float32 && run.length >= count && run.frame >= -kGuard &&
      run.frame + count <= directEnd) {
    const auto* left = static_cast<const float*>(data_->frames[0]);
    const auto* right = static_cast<const float*>(data_->frames[1]);
    return {left + run.frame, right + run.frame, count};
  }
  const int done = copyRam(first, std::min(count, scratch_.capacity));
  return {scratch_.left, data_->channels > 1 ? scratch_.right : scratch_.left, done};
}

// Copies unrolled frames [first, first + count) from RAM to the scratch's start;
// returns the frames copied (fewer where a partly loaded file runs out).
int SampleSource::copyRam(int64_t first, int count) noexcept SPINDLE_REALTIME {
  int done = 0;
  while (done < count) {
    const LoopMap::Run piece = loop_.locate(first + done);
    const int want = static_cast<int>(std::min<int64_t>(piece.length, count - done));
    const int got = copyRun(piece.frame, want, done);
    done += got;
    if (got < want) break;  // not available
  }
  return done;
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
    if (inside > 0) data_->readFrames(c, lo, inside, out + before);
    std::fill(out + before + inside, out + frames, 0.0f);
  }
  return frames;
}

}  // namespace spindle::engine
