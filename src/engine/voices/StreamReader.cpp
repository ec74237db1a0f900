#include "engine/voices/StreamReader.h"

#include <algorithm>

namespace spindle::engine {

bool StreamReader::open(rt::StreamBank* bank, const SampleData* data, const LoopMap& loop, int64_t first,
                        int64_t last, int64_t from) noexcept SPINDLE_REALTIME {
  close();
  if (!bank || !data) return false;
  const int slot = bank->acquire();
  if (slot < 0) return false;
  bank_ = bank;
  slot_ = slot;
  slotRef_ = &bank->slot(static_cast<uint32_t>(slot));
  stereo_ = data->channels > 1;
  first_ = first;
  exitFrame_ = LoopMap::kEndless;
  exitPending_ = false;
  // Relaxed: the Open order's release (the FIFO push below) publishes them to the disk.
  slotRef_->reach.store(from, std::memory_order_relaxed);
  slotRef_->speed.store(1.0f, std::memory_order_relaxed);
  rt::StreamOrder order;
  order.type = rt::StreamOrderType::Open;
  order.slot = static_cast<uint32_t>(slot);
  order.sample = data;
  order.loop = loop;
  order.firstFrame = first;
  order.lastFrame = last;
  bank->post(order);
  return true;
}

void StreamReader::exit(const LoopMap& loop, int64_t exitFrame, int64_t last) noexcept SPINDLE_REALTIME {
  if (slot_ < 0) return;
  exitFrame_ = exitFrame;
  exitPending_ = true;
  rt::StreamOrder order;
  order.type = rt::StreamOrderType::Exit;
  order.slot = static_cast<uint32_t>(slot_);
  order.loop = loop;
  order.lastFrame = last;
  order.exitFrame = exitFrame;
  bank_->post(order);
}

void StreamReader::close() noexcept SPINDLE_REALTIME {
  if (slot_ < 0) return;
  rt::StreamOrder order;
  order.type = rt::StreamOrderType::Release;
  order.slot = static_cast<uint32_t>(slot_);
  bank_->post(order);
  slot_ = -1;
  slotRef_ = nullptr;
}

bool StreamReader::complete() const noexcept SPINDLE_REALTIME {
  return slotRef_ && slotRef_->complete.load(std::memory_order_acquire);
}

uint64_t StreamReader::published() noexcept SPINDLE_REALTIME {
  const uint64_t w = slotRef_->runs.publishedPosition();
  if (exitPending_) {
    const uint64_t index = slotRef_->exitIndex.load(std::memory_order_acquire);
    if (index != rt::StreamSlot::kNoIndex) {
      exitIndex_ = index;
      exitPending_ = false;
    }
  }
  return w;
}

int64_t StreamReader::usableEnd(uint64_t index, const rt::FrameRun& run) const noexcept SPINDLE_REALTIME {
  const bool oldMap = exitFrame_ < LoopMap::kEndless && (exitPending_ || index < exitIndex_);
  return oldMap ? std::min(run.end(), exitFrame_) : run.end();
}

void StreamReader::advance(int64_t u, int64_t end) noexcept SPINDLE_REALTIME {
  if (slot_ < 0) return;
  slotRef_->reach.store(end, std::memory_order_relaxed);
  rt::StreamRing& runs = slotRef_->runs;
  const uint64_t w = published();
  uint64_t r = runs.readPosition();
  const uint64_t before = r;
  while (r != w && usableEnd(r, runs.peek(r)) <= u) ++r;  // read past, or past the exit
  if (r == before) return;
  runs.consume(r - before);
  bank_->noteConsumed();
}

void StreamReader::setSpeed(float speed) noexcept SPINDLE_REALTIME {
  if (slot_ >= 0) slotRef_->speed.store(speed, std::memory_order_relaxed);
}

bool StreamReader::direct(int64_t u, int count, const float*& left, const float*& right) noexcept
    SPINDLE_REALTIME {
  if (slot_ < 0 || u < first_ || count <= 0) return false;
  const rt::StreamRing& runs = slotRef_->runs;
  const uint64_t w = published();
  for (uint64_t i = runs.readPosition(); i != w; ++i) {
    const rt::FrameRun& run = runs.peek(i);
    const int64_t end = usableEnd(i, run);
    if (end <= u || run.first >= end) continue;  // behind u, or a run past the exit
    if (run.first > u || end < u + count || !run.left || run.format != SampleFormat::Float32) return false;
    left = static_cast<const float*>(run.left) + (u - run.first);
    right = static_cast<const float*>(stereo_ ? run.right : run.left) + (u - run.first);
    return true;
  }
  return false;
}

int StreamReader::copy(int64_t u, int count, float* left, float* right) noexcept SPINDLE_REALTIME {
  if (slot_ < 0 || u < first_) return 0;
  const rt::StreamRing& runs = slotRef_->runs;
  const uint64_t w = published();
  int done = 0;
  for (uint64_t i = runs.readPosition(); i != w && done < count; ++i) {
    const rt::FrameRun& run = runs.peek(i);
    const int64_t at = u + done;
    const int64_t end = usableEnd(i, run);
    if (end <= at || run.first >= end) continue;  // behind, or a run past the exit
    if (run.first > at) break;                    // a gap: the frames are missing
    const int n = static_cast<int>(std::min<int64_t>(count - done, end - at));
    run.read(at, n, left + done, stereo_ ? right + done : nullptr);
    done += n;
  }
  return done;
}

}  // namespace spindle::engine
