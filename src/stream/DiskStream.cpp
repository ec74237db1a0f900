#include "stream/DiskStream.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace spindle::stream {

void DiskStream::open(const rt::StreamOrder& order, rt::StreamSlot& slot, FileCache& cache, DiskCounters& counters,
                      int64_t readAhead) {
  slot_ = &slot;
  sample_ = order.sample;
  loop_ = order.loop;
  next_ = order.firstFrame;
  last_ = order.lastFrame;
  readerAt_ = -1;
  complete_ = false;
  filledOnce_ = false;
  openedAt_ = std::chrono::steady_clock::now();
  counters.streamsOpened.fetch_add(1, std::memory_order_relaxed);
  std::string error;
  reader_ = cache.checkOut(sample_, error);
  if (!reader_) {
    fail("cannot open sample file " + std::string(sample_->path ? sample_->path : "?") + " for streaming: " + error,
         counters);
    return;
  }
  adviseAhead(readAhead);
  if (next_ > last_) finish(false, counters);
}

// The frames before order.exitFrame map the same under the old and the new map
// (LoopMap.h), so frames already written before it stay valid. Frames written past
// it followed the old map: they are left where they are, and writing resumes at
// exitFrame after them; exitCounter tells the consumer where that is.
void DiskStream::exit(const rt::StreamOrder& order) {
  if (!slot_) return;
  const uint64_t w = slot_->ring.writePosition();
  uint64_t counter = w + static_cast<uint64_t>(order.exitFrame - next_);
  if (next_ > order.exitFrame) {
    counter = w;
    next_ = order.exitFrame;
  }
  loop_ = order.loop;
  last_ = order.lastFrame;
  // Release: pairs with the consumer's acquire load; frames at or past `counter` are
  // committed later still, by commitWrite's own release store.
  slot_->exitCounter.store(counter, std::memory_order_release);
}

void DiskStream::close(FileCache& cache) {
  cache.checkIn(sample_, std::move(reader_));
  slot_ = nullptr;
  sample_ = nullptr;
  complete_ = false;
}

int64_t DiskStream::readable() const noexcept {
  return slot_ ? slot_->ring.capacity() - slot_->ring.writableFrames() : 0;
}

bool DiskStream::needsService(int64_t lowWater) const noexcept {
  if (!slot_ || complete_) return false;
  const int64_t writable = slot_->ring.writableFrames();
  const int64_t remaining = last_ - next_ + 1;
  const int64_t filled = readable();
  return filled < slot_->ring.capacity() / 2 || (writable > 0 && (writable >= remaining || filled < lowWater));
}

int64_t DiskStream::fill(int64_t frames, const ReadHook& beforeRead, DiskCounters& counters) {
  if (!slot_ || complete_) return 0;
  rt::StreamRing& ring = slot_->ring;
  const bool stereo = sample_->channels > 1;
  int64_t want = std::min({frames, ring.writableFrames(), last_ - next_ + 1});
  int64_t done = 0;
  while (want > 0) {
    const int64_t piece = std::min(want, ring.writeContiguous());
    const int64_t got = produce(ring.writePointer(0), stereo ? ring.writePointer(1) : nullptr, next_, piece,
                                beforeRead, counters);
    ring.commitWrite(got);
    next_ += got;
    done += got;
    want -= got;
    if (got < piece) {
      if (error_.empty()) error_ = "sample file " + std::string(sample_->path) + " stopped streaming";
      fail(std::move(error_), counters);
      return done;
    }
  }
  if (done > 0 && !filledOnce_) noteFirstFill(counters);
  if (next_ > last_) finish(false, counters);
  else adviseAhead(frames);
  return done;
}

// Unrolled frames [u, u + frames) into left/right (right null for mono), run by run.
int64_t DiskStream::produce(float* left, float* right, int64_t u, int64_t frames, const ReadHook& beforeRead,
                            DiskCounters& counters) {
  const int64_t inRam = sample_->framesInRam;
  const int64_t total = sample_->totalFrames;
  int64_t done = 0;
  while (done < frames) {
    const LoopMap::Run run = loop_.locate(u + done);
    const int64_t len = std::min(run.length, frames - done);
    const int64_t f = run.frame;
    float* l = left + done;
    float* r = right ? right + done : nullptr;
    int64_t got = len;
    if (f < inRam) {
      got = std::min(len, inRam - f);
      copyFromRam(l, r, f, got);
      counters.framesFromRam.fetch_add(static_cast<uint64_t>(got), std::memory_order_relaxed);
    } else if (f >= total) {
      std::fill_n(l, len, 0.0f);
      if (r) std::fill_n(r, len, 0.0f);
    } else {
      got = decode(l, r, f, std::min(len, total - f), beforeRead, counters);
      if (got <= 0) break;
    }
    done += got;
  }
  return done;
}

int64_t DiskStream::decode(float* left, float* right, int64_t fileFrame, int64_t frames, const ReadHook& beforeRead,
                           DiskCounters& counters) {
  if (!reader_) return 0;
  const std::string file = sample_->path;
  if (readerAt_ != fileFrame) {
    counters.seeks.fetch_add(1, std::memory_order_relaxed);
    if (!reader_->seek(fileFrame)) {
      error_ = "cannot seek to frame " + std::to_string(fileFrame) + " of sample file " + file;
      return 0;
    }
  }
  if (beforeRead && !beforeRead()) {
    error_ = "cannot read sample file " + file + " at frame " + std::to_string(fileFrame) + ": Input/output error";
    readerAt_ = -1;
    return 0;
  }
  const int64_t got = reader_->readPlanar(left, right, frames);
  if (got < frames)
    error_ = "cannot read sample file " + file + " at frame " + std::to_string(fileFrame + std::max<int64_t>(got, 0)) +
             ": " + (reader_->lastError().empty() ? "the file ended early (truncated or replaced?)" : reader_->lastError());
  counters.reads.fetch_add(1, std::memory_order_relaxed);
  counters.framesDecoded.fetch_add(static_cast<uint64_t>(std::max<int64_t>(got, 0)), std::memory_order_relaxed);
  readerAt_ = got > 0 ? fileFrame + got : -1;
  return got;
}

void DiskStream::copyFromRam(float* left, float* right, int64_t fileFrame, int64_t frames) const noexcept {
  const auto bytes = static_cast<std::size_t>(frames) * sizeof(float);
  std::memcpy(left, sample_->channel[0] + fileFrame, bytes);
  if (right) std::memcpy(right, sample_->channel[1] + fileFrame, bytes);
}

// Only the disk thread writes the counter, so load-compare-store is enough.
void DiskStream::noteFirstFill(DiskCounters& counters) noexcept {
  filledOnce_ = true;
  const auto micros = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - openedAt_).count());
  if (micros > counters.worstFirstFillMicros.load(std::memory_order_relaxed))
    counters.worstFirstFillMicros.store(micros, std::memory_order_relaxed);
}

void DiskStream::fail(std::string why, DiskCounters& counters) {
  error_ = std::move(why);
  finish(true, counters);
}

// Complete: the consumer's acquire load of `complete` sees every frame committed before.
void DiskStream::finish(bool failed, DiskCounters& counters) noexcept {
  complete_ = true;
  if (failed) counters.failures.fetch_add(1, std::memory_order_relaxed);
  slot_->complete.store(true, std::memory_order_release);
}

// posix_fadvise(WILLNEED) for the file frames the next read will want.
void DiskStream::adviseAhead(int64_t frames) noexcept {
  if (!reader_ || complete_) return;
  const LoopMap::Run run = loop_.locate(next_);
  if (run.frame >= sample_->framesInRam && run.frame < sample_->totalFrames)
    reader_->adviseWillNeed(run.frame, std::min(frames, run.length));
}

}  // namespace spindle::stream
