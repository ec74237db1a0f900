#include "stream/DiskStream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "stream/SampleSlice.h"

namespace spindle::stream {

DiskStream::~DiskStream() {
  if (fd_ >= 0) ::close(fd_);
}

void DiskStream::open(const rt::StreamOrder& order, rt::StreamSlot& slot, DiskShared& shared) {
  shared_ = &shared;
  slot_ = &slot;
  sample_ = order.sample;
  block_ = behind_ = nullptr;
  voiceReads_ = false;
  loop_ = order.loop;
  next_ = order.firstFrame;
  first_ = readEnd_ = order.firstFrame;
  last_ = order.lastFrame;
  startCounter_ = slot.ring.writePosition();
  complete_ = false;
  failed_ = false;
  filledOnce_ = false;
  openedAt_ = std::chrono::steady_clock::now();
  shared.counters.streamsOpened.fetch_add(1, std::memory_order_relaxed);
  std::string error;
  int64_t position = -1;
  auto reader = shared.files.checkOut(sample_, error, &position);
  if (!reader) {
    fail("cannot open sample file " + std::string(sample_->path ? sample_->path : "?") + " for streaming: " + error);
    return;
  }
  shared.files.checkIn(sample_, std::move(reader), position);
  fd_ = ::open(fileOfPath(sample_->path).c_str(), O_RDONLY | O_CLOEXEC);
  follow();
  if (next_ > last_) finish(false);
}

// The frames before order.exitFrame map the same under the old and the new map
// (LoopMap.h), so frames already written before it stay valid. Frames written past it
// followed the old map: they are taken back (the consumer reads and consumes nothing at
// or past exitFrame until it sees exitCounter, StreamReader.h), and writing resumes at
// exitFrame where the first of them was. Left in the ring, they lay between the frames
// the voice still reads before exitFrame and those after it, where the voice could not
// consume them: they counted as buffered (no top-up, needsService) and took the room of
// the frames past exitFrame, and the voice underran at the exit.
void DiskStream::exit(const rt::StreamOrder& order) {
  if (!slot_) return;
  rt::StreamRing& ring = slot_->ring;
  if (next_ > order.exitFrame) {
    ring.retractWrite(std::min(next_ - order.exitFrame, readable()));
    next_ = order.exitFrame;
  }
  const uint64_t counter = ring.writePosition() + static_cast<uint64_t>(order.exitFrame - next_);
  loop_ = order.loop;
  last_ = order.lastFrame;
  cursor_.last = lastFileFrame();
  // A stream that had written its last frame under the old map (a loop_count loop
  // whose end fit in the ring) has frames to write again. Relaxed: the consumer waits
  // for exitCounter, whose release store follows, before it needs those frames.
  if (complete_ && !failed_ && next_ <= last_) {
    complete_ = false;
    slot_->complete.store(false, std::memory_order_relaxed);
  }
  // Release: pairs with the consumer's acquire load; frames at or past `counter` are
  // committed later still, by commitWrite's own release store.
  slot_->exitCounter.store(counter, std::memory_order_release);
}

void DiskStream::close() {
  if (!slot_) return;
  unpin();
  if (cursor_.sample) shared_->blocks.unfollow(&cursor_);
  cursor_.sample = nullptr;
  // The audio thread posted Release after its last consume(): its read position is final.
  // With no rings, read() counted how far the voice read instead.
  const uint64_t consumed = slot_->ring.readPosition() - startCounter_ + static_cast<uint64_t>(readEnd_ - first_);
  shared_->counters.framesConsumed.fetch_add(consumed, std::memory_order_relaxed);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  slot_ = nullptr;
  sample_ = nullptr;
  complete_ = false;
}

// The last file frame the stream may read: its last unrolled frame, or with a loop
// (which may wrap back) the file's end.
int64_t DiskStream::lastFileFrame() const noexcept {
  return loop_.looping() ? sample_->totalFrames - 1 : std::min(last_, sample_->totalFrames - 1);
}

void DiskStream::follow() {
  cursor_ = BlockCache::Cursor{sample_, loop_.locate(next_).frame, lastFileFrame()};
  shared_->blocks.follow(&cursor_);
}

void DiskStream::unpin() noexcept {
  if (block_) shared_->blocks.unpin(block_);
  if (behind_) shared_->blocks.unpin(behind_);
  block_ = behind_ = nullptr;
}

int64_t DiskStream::readable() const noexcept {
  return slot_ ? slot_->ring.capacity() - slot_->ring.writableFrames() : 0;
}

bool DiskStream::needsService(int64_t lowWater) const noexcept {
  if (!slot_ || complete_) return false;
  const int64_t writable = slot_->ring.writableFrames();
  const int64_t remaining = last_ - next_ + 1;
  const int64_t filled = readable();
  return filled < slot_->ring.capacity() - slot_->ring.capacity() / 4 || (writable > 0 && (writable >= remaining || filled < lowWater));
}

int64_t DiskStream::fill(int64_t frames) {
  if (!slot_ || complete_) return 0;
  rt::StreamRing& ring = slot_->ring;
  const bool stereo = sample_->channels > 1;
  int64_t want = std::min({frames, ring.writableFrames(), last_ - next_ + 1});
  int64_t done = 0;
  while (want > 0) {
    const int64_t piece = std::min(want, ring.writeContiguous());
    const int64_t got = produce(ring.writePointer(0), stereo ? ring.writePointer(1) : nullptr, next_, piece);
    ring.commitWrite(got);
    next_ += got;
    done += got;
    want -= got;
    if (got < piece) {
      if (error_.empty()) error_ = "sample file " + std::string(sample_->path) + " stopped streaming";
      fail(std::move(error_));
      return done;
    }
  }
  if (done > 0 && !filledOnce_) noteFirstFill();
  if (next_ > last_) finish(false);
  return done;
}

int64_t DiskStream::read(int64_t first, int64_t frames, float* left, float* right) {
  if (!slot_ || failed_) return 0;
  const int64_t want = std::min(frames, last_ - first + 1);
  if (want <= 0) return 0;
  voiceReads_ = true;
  const int64_t got = produce(left, sample_->channels > 1 ? right : nullptr, first, want);
  if (got > 0 && !filledOnce_) noteFirstFill();
  readEnd_ = std::max(readEnd_, first + got);
  if (got < want) fail(error_.empty() ? "sample file " + std::string(sample_->path) + " stopped streaming" : error_);
  return got;
}

// Unrolled frames [u, u + frames) into left/right (right null for mono), run by run.
int64_t DiskStream::produce(float* left, float* right, int64_t u, int64_t frames) {
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
      shared_->counters.framesFromRam.fetch_add(static_cast<uint64_t>(got), std::memory_order_relaxed);
    } else if (f >= total) {
      std::fill_n(l, len, 0.0f);
      if (r) std::fill_n(r, len, 0.0f);
    } else {
      const int64_t want = std::min(len, total - f);
      got = copyFromBlocks(l, r, f, want);
      if (got < want) return done + got;  // a block failed: error_ says why, once
    }
    done += got;
  }
  return done;
}

// File frames [fileFrame, fileFrame + frames) from the cache's blocks, pinning each in
// turn; fewer when a block cannot be decoded (error_ says why). A voice's reads
// (read()) are short and overlap by its interpolator's taps. So there the block before
// stays pinned too (the taps a read takes from it are not a second use of it), and the
// frames after a read, as many as it copied, are prefetched: the voice's next read finds
// them in the core's cache (dense piano bench: 10 % less CPU with the rings' memory
// given to the cache, 4 % of it the prefetch).
int64_t DiskStream::copyFromBlocks(float* left, float* right, int64_t fileFrame, int64_t frames) {
  const auto holds = [](const BlockCache::Block* b, int64_t f) {
    return b && f >= b->first && f < b->first + b->frames;
  };
  int64_t done = 0;
  while (done < frames) {
    const int64_t at = fileFrame + done;
    const BlockCache::Block* from = block_;
    if (holds(behind_, at)) {
      from = behind_;
    } else if (!holds(block_, at)) {
      const BlockCache::Block* previous = std::exchange(block_, nullptr);
      if (behind_) shared_->blocks.unpin(behind_);
      behind_ = nullptr;
      if (previous && voiceReads_) behind_ = previous;
      else if (previous) shared_->blocks.unpin(previous);
      block_ = shared_->blocks.pin(sample_, at, shared_->files, shared_->beforeRead, shared_->counters, error_, fd_);
      if (!block_) return done;
      cursor_.at = block_->first;
      from = block_;
    }
    const int64_t offset = at - from->first;
    const int64_t n = std::min(frames - done, from->frames - offset);
    BlockCache::copyFrames(*from, offset, n, left + done, right ? right + done : nullptr);
    if (voiceReads_) BlockCache::prefetchFrames(*from, offset + n, n);
    done += n;
  }
  return done;
}

void DiskStream::copyFromRam(float* left, float* right, int64_t fileFrame, int64_t frames) const noexcept {
  sample_->readFrames(0, fileFrame, frames, left);
  if (right) sample_->readFrames(1, fileFrame, frames, right);
}

// Only the disk thread writes the counter, so load-compare-store is enough.
void DiskStream::noteFirstFill() noexcept {
  DiskCounters& counters = shared_->counters;
  filledOnce_ = true;
  const auto micros = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - openedAt_).count());
  if (micros > counters.worstFirstFillMicros.load(std::memory_order_relaxed))
    counters.worstFirstFillMicros.store(micros, std::memory_order_relaxed);
}

void DiskStream::fail(std::string why) {
  error_ = std::move(why);
  unpin();
  finish(true);
}

// Complete: the consumer's acquire load of `complete` sees every frame committed before.
void DiskStream::finish(bool failed) noexcept {
  complete_ = true;
  failed_ = failed;
  if (!failed) unpin();
  if (failed) shared_->counters.failures.fetch_add(1, std::memory_order_relaxed);
  slot_->complete.store(true, std::memory_order_release);
}

}  // namespace spindle::stream
