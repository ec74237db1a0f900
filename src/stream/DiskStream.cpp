#include "stream/DiskStream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <utility>

#include "stream/SampleSlice.h"

namespace spindle::stream {

namespace {
constexpr int64_t kMaxRunFrames = int64_t{1} << 30;  // a run's length fits its int32
}

DiskStream::~DiskStream() {
  if (fd_ >= 0) ::close(fd_);
}

void DiskStream::open(const rt::StreamOrder& order, rt::StreamSlot& slot, DiskShared& shared) {
  shared_ = &shared;
  slot_ = &slot;
  sample_ = order.sample;
  pins_.fill(nullptr);
  released_ = slot.runs.writePosition();
  loop_ = order.loop;
  next_ = first_ = order.firstFrame;
  last_ = order.lastFrame;
  complete_ = failed_ = pushedOnce_ = false;
  openedAt_ = std::chrono::steady_clock::now();
  slot.pushedEnd.store(next_, std::memory_order_relaxed);
  slot.serving.store(true, std::memory_order_relaxed);
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

// The runs before order.exitFrame read the same under the old and the new map
// (LoopMap.h), so the runs already pushed stay valid up to it; what they hold past it
// followed the old map, and the voice skips that (rt/StreamBank.h). The runs pushed
// from now on follow the new map, from exitFrame (or from where the runs end, when they
// had not reached it yet), and the first of them is at exitIndex.
void DiskStream::exit(const rt::StreamOrder& order) {
  if (!slot_) return;
  next_ = std::min(next_, order.exitFrame);
  loop_ = order.loop;
  last_ = order.lastFrame;
  cursor_.last = lastFileFrame();
  // A stream that had pushed its last run under the old map (a loop_count loop whose
  // end was near) has runs to push again. Relaxed: the consumer loads exitIndex,
  // whose release store follows, before it relies on more runs.
  if (complete_ && !failed_ && next_ <= last_) {
    complete_ = false;
    slot_->complete.store(false, std::memory_order_relaxed);
  }
  slot_->pushedEnd.store(next_, std::memory_order_relaxed);
  slot_->exitIndex.store(slot_->runs.writePosition(), std::memory_order_release);
}

void DiskStream::close() {
  if (!slot_) return;
  // The audio thread posted Release after its last read: every run is consumed by now
  // or never will be, and its reach is final (the order FIFO's acquire made it visible).
  for (uint64_t i = released_; i != slot_->runs.writePosition(); ++i) {
    if (const BlockCache::Block* block = std::exchange(pins_[i % rt::StreamRing::kCapacity], nullptr))
      shared_->blocks.unpin(block);
  }
  shared_->counters.pinnedBlocks.store(static_cast<uint64_t>(shared_->blocks.pinnedCount()), std::memory_order_relaxed);
  if (cursor_.sample) shared_->blocks.unfollow(&cursor_);
  cursor_.sample = nullptr;
  const int64_t read = slot_->reach.load(std::memory_order_relaxed) - first_;
  shared_->counters.framesConsumed.fetch_add(static_cast<uint64_t>(std::max<int64_t>(read, 0)), std::memory_order_relaxed);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  slot_ = nullptr;
  sample_ = nullptr;
  complete_ = false;
}

void DiskStream::release() noexcept {
  if (!slot_) return;
  const uint64_t consumed = slot_->runs.consumedPosition();
  if (consumed == released_) return;
  for (; released_ != consumed; ++released_) {
    if (const BlockCache::Block* block = std::exchange(pins_[released_ % rt::StreamRing::kCapacity], nullptr))
      shared_->blocks.unpin(block);
  }
  shared_->counters.pinnedBlocks.store(static_cast<uint64_t>(shared_->blocks.pinnedCount()), std::memory_order_relaxed);
}

int64_t DiskStream::reach() const noexcept { return slot_ ? slot_->reach.load(std::memory_order_relaxed) : 0; }

float DiskStream::speed() const noexcept { return slot_ ? slot_->speed.load(std::memory_order_relaxed) : 1.0f; }

int64_t DiskStream::blockFrames() const noexcept {
  return sample_ ? shared_->blocks.framesPerBlock(sample_) : BlockCache::kBlockFrames;
}

bool DiskStream::wants(int64_t target) const noexcept {
  return slot_ && !complete_ && next_ <= last_ && next_ < target && !slot_->runs.full();
}

int DiskStream::push(int64_t target) {
  int pushed = 0;
  while (wants(target) && pushRun()) ++pushed;
  if (pushed > 0) {
    if (!pushedOnce_) noteFirstRun();
    slot_->pushedEnd.store(next_, std::memory_order_relaxed);
    shared_->counters.runsPushed.fetch_add(static_cast<uint64_t>(pushed), std::memory_order_relaxed);
    shared_->counters.pinnedBlocks.store(static_cast<uint64_t>(shared_->blocks.pinnedCount()), std::memory_order_relaxed);
  }
  if (slot_ && !complete_ && next_ > last_) finish(false);
  return pushed;
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

// One run from next_: as long as the loop map, the place the frames lie in and the
// stream allow. False when none could be pushed (the ring is full, every cache block
// is pinned, or the file failed).
bool DiskStream::pushRun() {
  const LoopMap::Run at = loop_.locate(next_);
  const int64_t length = std::min({at.length, last_ - next_ + 1, kMaxRunFrames});
  const int64_t f = at.frame;
  rt::FrameRun run;
  run.first = next_;
  const BlockCache::Block* block = nullptr;
  if (f < sample_->framesInRam) {
    run.frames = static_cast<int32_t>(std::min(length, sample_->framesInRam - f));
    run.left = valueAt(sample_->frames[0], sample_->format, f);
    run.right = valueAt(sample_->frames[1], sample_->format, f);
    run.format = sample_->format;
    shared_->counters.framesFromRam.fetch_add(static_cast<uint64_t>(run.frames), std::memory_order_relaxed);
  } else if (f >= sample_->totalFrames) {
    run.frames = static_cast<int32_t>(length);  // zeros
  } else {
    block = shared_->blocks.pin(sample_, f, shared_->files, shared_->beforeRead, shared_->counters, error_, fd_);
    if (!block) {
      if (!error_.empty()) fail(std::move(error_));
      return false;
    }
    cursor_.at = block->first;
    run = BlockCache::runOf(*block, f, std::min(length, sample_->totalFrames - f));
    run.first = next_;
  }
  pins_[slot_->runs.writePosition() % rt::StreamRing::kCapacity] = block;
  [[maybe_unused]] const bool pushed = slot_->runs.tryPush(run);  // wants() saw room; only we push
  next_ += run.frames;
  return true;
}

// Only the disk thread writes the counter, so load-compare-store is enough.
void DiskStream::noteFirstRun() noexcept {
  DiskCounters& counters = shared_->counters;
  pushedOnce_ = true;
  const auto micros = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - openedAt_).count());
  if (micros > counters.worstFirstFillMicros.load(std::memory_order_relaxed))
    counters.worstFirstFillMicros.store(micros, std::memory_order_relaxed);
}

void DiskStream::fail(std::string why) {
  error_ = std::move(why);
  finish(true);
}

// Complete: the consumer's acquire load of `complete` sees every run pushed before.
void DiskStream::finish(bool failed) noexcept {
  complete_ = true;
  failed_ = failed;
  if (failed) shared_->counters.failures.fetch_add(1, std::memory_order_relaxed);
  slot_->complete.store(true, std::memory_order_release);
}

}  // namespace spindle::stream
