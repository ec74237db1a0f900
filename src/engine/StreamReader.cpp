#include "engine/StreamReader.h"

#include <algorithm>
#include <cstring>

namespace spindle::engine {

bool StreamReader::open(rt::StreamBank* bank, const SampleData* data, const LoopMap& loop, int64_t first,
                        int64_t last) noexcept SPINDLE_REALTIME {
  close();
  if (!bank || !data) return false;
  const int slot = bank->acquire();
  if (slot < 0) return false;
  bank_ = bank;
  slot_ = slot;
  slotRef_ = &bank->slot(static_cast<uint32_t>(slot));
  stereo_ = data->channels > 1;
  first_ = first;
  // The disk thread reset the ring before giving the slot back, so both counters
  // stand at the same value: its next write lands at our read position.
  base_ = slotRef_->ring.readPosition();
  exitFrame_ = LoopMap::kEndless;
  exitPending_ = false;
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

void StreamReader::pollExit() noexcept SPINDLE_REALTIME {
  if (!exitPending_) return;
  const uint64_t c = slotRef_->exitCounter.load(std::memory_order_acquire);
  if (c == rt::StreamSlot::kNoCounter) return;
  exitCounter_ = c;
  exitPending_ = false;
}

bool StreamReader::counterOf(int64_t u, uint64_t& counter) const noexcept SPINDLE_REALTIME {
  if (u < exitFrame_) {
    counter = base_ + static_cast<uint64_t>(u - first_);
    return true;
  }
  if (exitPending_) return false;
  counter = exitCounter_ + static_cast<uint64_t>(u - exitFrame_);
  return true;
}

int64_t StreamReader::availableFrom(uint64_t c) const noexcept SPINDLE_REALTIME {
  const rt::StreamRing& ring = slotRef_->ring;
  const int64_t readable = ring.readableFrames();
  const auto k = static_cast<int64_t>(c - ring.readPosition());  // counters wrap: difference first
  return k < 0 || k > readable ? 0 : readable - k;
}

void StreamReader::consumeBefore(int64_t u) noexcept SPINDLE_REALTIME {
  if (slot_ < 0 || u <= first_ || bank_->readsOnWaitingThread()) return;
  pollExit();
  uint64_t c = 0;
  if (!counterOf(u, c)) return;
  rt::StreamRing& ring = slotRef_->ring;
  const auto k = static_cast<int64_t>(c - ring.readPosition());
  // Underrun: the voice ran ahead of the disk; frames arriving later for positions
  // it has passed are consumed by the next calls.
  if (k > 0) ring.consume(std::min(k, ring.readableFrames()));
}

bool StreamReader::direct(int64_t u, int count, const float*& left, const float*& right) noexcept
    SPINDLE_REALTIME {
  if (slot_ < 0 || u < first_ || count <= 0 || bank_->readsOnWaitingThread()) return false;
  uint64_t a = 0, b = 0;
  if (!counterOf(u, a) || !counterOf(u + count - 1, b) || b - a != static_cast<uint64_t>(count - 1)) return false;
  const rt::StreamRing& ring = slotRef_->ring;
  if (a != ring.readPosition() || ring.readContiguous() < count) return false;
  left = ring.readPointer(0);
  right = ring.readPointer(stereo_ ? 1 : 0);
  return true;
}

int StreamReader::copy(int64_t u, int count, float* left, float* right) noexcept SPINDLE_REALTIME {
  if (slot_ < 0 || u < first_) return 0;
  if (bank_->readsOnWaitingThread()) return bank_->readNow(static_cast<uint32_t>(slot_), u, count, left, right);
  int done = 0;
  bool waited = false;
  while (done < count) {
    pollExit();
    const int64_t at = u + done;
    uint64_t c = 0;
    const bool known = counterOf(at, c);
    int want = count - done;
    if (at < exitFrame_) want = static_cast<int>(std::min<int64_t>(want, exitFrame_ - at));
    const int got = known ? copyAvailable(c, want, left + done, right + done) : 0;
    done += got;
    if (got == want) continue;
    if (waited || !bank_->freewheel()) break;
    // Freewheel: wait for the disk thread (blocking is allowed there, see StreamBank).
    // An unacknowledged exit needs one disk round; missing frames need them written.
    const uint64_t end = known ? c + static_cast<uint64_t>(want) : slotRef_->ring.readPosition();
    bank_->waitForFrames(static_cast<uint32_t>(slot_), end);
    waited = true;
  }
  return done;
}

// Copies up to `count` committed frames from counter c on, across the ring's wrap.
int StreamReader::copyAvailable(uint64_t c, int count, float* left, float* right) const noexcept SPINDLE_REALTIME {
  const rt::StreamRing& ring = slotRef_->ring;
  const int n = static_cast<int>(std::min<int64_t>(count, availableFrom(c)));
  if (n <= 0) return 0;
  const int64_t capacity = ring.capacity();
  const int64_t readAt = static_cast<int64_t>(ring.readPosition() & static_cast<uint64_t>(capacity - 1));
  const int64_t pos = static_cast<int64_t>(c & static_cast<uint64_t>(capacity - 1));
  const int64_t firstPart = std::min<int64_t>(n, capacity - pos);
  for (int ch = 0; ch < (stereo_ ? 2 : 1); ++ch) {
    const float* storage = ring.readPointer(ch) - readAt;  // the channel's position 0
    float* out = ch == 0 ? left : right;
    std::memcpy(out, storage + pos, static_cast<size_t>(firstPart) * sizeof(float));
    std::memcpy(out + firstPart, storage, static_cast<size_t>(n - firstPart) * sizeof(float));
  }
  return n;
}

}  // namespace spindle::engine
