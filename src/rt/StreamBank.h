#pragma once
// StreamBank: the contract between the audio thread and the disk thread.
//
// Every stream slot (a StreamRing plus two flags) is allocated up front, so memory
// never grows with the library. The audio thread owns which slots are in use: it
// takes one from its free stack, ORDERS it filled (the disk thread picks the order up
// later), reads frames from the ring, and hands the slot back with a Release order.
// The disk thread empties the slot and returns it through a FIFO of its own.
//
//   audio thread                      orders (SpscFifo, audio -> disk)       disk thread
//   acquire() --- Open{slot, sample, loop, first frame} ----------------------> opens the file,
//   ring.read*/consume  <========== StreamRing (frames, unrolled order) ====== fills the ring
//   leaveLoop --- Exit{slot, loop, exitFrame} --------------------------------> follows the new
//   exitCounter (acquire) <======== where unrolled exitFrame went ============ loop map
//   voice ends -- Release{slot} ---------------------------------------------> resets the ring
//   free stack <--------------------- returns (SpscFifo, disk -> audio) ------ gives it back
//   endBlock(): wake.post() at most once per block (the only syscall of the audio thread),
//   and only when an order was posted or an open ring is below three quarters full
//
// Invariants:
//  - Orders never fail: a slot sees at most Open, Exit and Release between two trips
//    through the free stack, so at most 3 * kMaxStreams orders are outstanding and
//    kOrderCapacity is larger.
//  - Ring counter <-> unrolled frame: Open says the ring's next counter holds unrolled
//    `firstFrame`; frames follow one per counter. After an Exit the disk thread
//    publishes in exitCounter the counter that holds unrolled `exitFrame` (frames it
//    had already written past exitFrame, with the old map, it takes back first:
//    StreamRing::retractWrite, so exitCounter is where they began). Until exitCounter
//    is published the consumer reads and consumes nothing at or past exitFrame.
//  - A slot is reset (ring counters, flags) by the disk thread when it takes Release,
//    before it pushes the slot to `returns`; the FIFO's release/acquire pair orders
//    that reset before the audio thread reuses the slot.
//
// Freewheel (offline render): the renderer thread calls keepPace() between blocks,
// which calls waitUntilReady() when an order was posted since the last wait or an
// open ring holds less than lowWaterFrames(); waitUntilReady() returns once the disk
// thread has taken every order posted so far and filled every open ring it could.
// Otherwise the disk thread, woken by endBlock(), fills rings while the block renders.
// waitForFrames() waits inside a block for frames a stream does not hold yet; it
// blocks, so it is used only in freewheel mode, where nothing is real-time by definition.
// An offline render (spindle-render) has no disk thread: the renderer runs the disk's
// rounds itself where it would wait (serveOnWaitingThread). Frames it decodes and
// copies are then read from its own core's caches, not another core's: on the dense
// piano bench a fifth less CPU in all, with the same wall time. There the rings are
// not used either: a voice's read copies its frames from the decoded blocks straight
// into the voice's span (serveOnWaitingThread's Reader, readNow), one copy instead of
// a copy into the ring and a read from it, and the rings' memory goes to the cache.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/Limits.h"
#include "core/LoopMap.h"
#include "core/Realtime.h"
#include "core/SampleData.h"
#include "rt/Semaphore.h"
#include "rt/SpscFifo.h"
#include "rt/StreamRing.h"

#if defined(__has_feature)
#if __has_feature(realtime_sanitizer)
#include <sanitizer/rtsan_interface.h>
#define SPINDLE_FREEWHEEL_WAIT_SCOPE __rtsan::ScopedDisabler freewheelNotRealtime
#endif
#endif
#ifndef SPINDLE_FREEWHEEL_WAIT_SCOPE
#define SPINDLE_FREEWHEEL_WAIT_SCOPE
#endif

namespace spindle::rt {

enum class StreamOrderType : uint8_t { Open, Exit, Release };

struct StreamOrder {
  StreamOrderType type = StreamOrderType::Release;
  uint32_t slot = 0;
  const SampleData* sample = nullptr;  // Open: what to stream (sample->path)
  LoopMap loop;                        // Open, Exit: the map to follow from now on
  int64_t firstFrame = 0;              // Open: unrolled frame at the ring's next counter
  int64_t lastFrame = 0;               // Open, Exit: last unrolled frame to deliver, look-ahead included
  int64_t exitFrame = 0;               // Exit: first unrolled frame the new map changes
};
static_assert(std::is_trivially_copyable_v<StreamOrder>);

struct StreamSlot {
  static constexpr uint64_t kNoCounter = ~uint64_t{0};
  StreamRing ring;
  // Disk -> audio: ring counter of the Exit order's exitFrame; kNoCounter until known.
  std::atomic<uint64_t> exitCounter{kNoCounter};
  // Disk -> audio: every frame up to lastFrame is committed (silence if the file failed).
  std::atomic<bool> complete{false};
};

class StreamBank {
 public:
  static constexpr std::size_t kOrderCapacity = 16384;
  static_assert(kOrderCapacity >= 3 * static_cast<std::size_t>(limits::kMaxStreams));

  // Owner thread: allocates `streams` stereo rings of `ringFrames` (a power of two)
  // frames. lowWaterFrames: what one voice may read ahead within one block.
  StreamBank(int streams, int64_t ringFrames, int64_t lowWaterFrames);
  StreamBank(const StreamBank&) = delete;
  StreamBank& operator=(const StreamBank&) = delete;

  // ---- any thread (fixed after construction) ----
  int size() const noexcept SPINDLE_REALTIME { return static_cast<int>(slots_.size()); }
  int64_t ringFrames() const noexcept SPINDLE_REALTIME { return ringFrames_; }
  int64_t lowWaterFrames() const noexcept SPINDLE_REALTIME { return lowWater_; }
  std::size_t ringBytes() const noexcept;  // every ring's storage together
  StreamSlot& slot(uint32_t index) noexcept SPINDLE_REALTIME { return *slots_[index]; }

  // ---- audio thread ----
  // A free slot's index, or -1 when all are in use (the voice then plays its preload).
  int acquire() noexcept SPINDLE_REALTIME;
  // Queues an order; never fails (see the invariants above).
  void post(const StreamOrder& order) noexcept SPINDLE_REALTIME;
  // Once per process(): takes back released slots, and wakes the disk thread if an
  // order was posted or an open stream's ring is below three quarters of its capacity
  // (where the disk thread tops it up: DiskStream::needsService).
  void endBlock() noexcept SPINDLE_REALTIME;
  // Slots not yet back from the disk thread (Release taken when last reclaimed).
  int slotsInUse() const noexcept SPINDLE_REALTIME { return size() - freeCount_; }
  bool freewheel() const noexcept SPINDLE_REALTIME { return freewheel_.load(std::memory_order_relaxed); }

  // Any thread (the GUI and OSC status): the emptiest ring among the open streams, as
  // a fraction of its capacity. A slot counts as open once the disk thread wrote to it
  // and until its last frame is there. Only atomics are read, so the scan cannot
  // disturb the audio or disk thread; the answer is a snapshot, exact enough for display.
  struct RingFill {
    double lowest = -1.0;  // 0..1; < 0 when no stream is open
    int open = 0;
  };
  RingFill lowestRingFill() const noexcept {
    RingFill fill;
    for (const auto& slot : slots_) {
      if (slot->ring.writePosition() == 0 || slot->complete.load(std::memory_order_relaxed)) continue;
      const double f = static_cast<double>(slot->ring.readableFrames()) / static_cast<double>(slot->ring.capacity());
      fill.lowest = fill.open == 0 ? f : std::min(fill.lowest, f);
      ++fill.open;
    }
    return fill;
  }
  // Freewheel only: waits for at least one disk round, and more until the ring of
  // `slot` has committed counter `end - 1` or is complete (a few rounds at most).
  // True when the frames are there.
  bool waitForFrames(uint32_t slot, uint64_t end) noexcept SPINDLE_REALTIME;

  // ---- owner / renderer thread ----
  // Set before rendering starts, while the audio thread does not run.
  void setFreewheel(bool on) noexcept { freewheel_.store(on, std::memory_order_relaxed); }
  // Freewheel, between blocks, on the thread that calls process().
  void waitUntilReady() noexcept;
  // Freewheel, between blocks: waitUntilReady() only when an order was posted since
  // the last wait or an open ring is below lowWaterFrames().
  void keepPace() noexcept;
  // An offline render with no disk thread (stream::DiskOptions::threaded false): every
  // wait above runs `serve(context)` on the waiting thread instead, the disk's rounds
  // until one finds nothing to do, and endBlock() wakes nobody. Set by the disk side
  // before rendering starts; nullptr goes back to waiting for a thread.
  using Server = void (*)(void* context);
  // `read(context, slot, first, count, left, right)`: with no disk thread, the frames
  // of one read of a voice, unrolled [first, first + count) of the slot's stream, copied
  // into left/right (right unused for mono) at once; returns the frames copied (fewer
  // only when the stream ends or its file fails). Null: voices read rings.
  using Reader = int (*)(void* context, uint32_t slot, int64_t first, int count, float* left, float* right);
  void serveOnWaitingThread(Server serve, Reader read, void* context) noexcept {
    server_ = serve;
    reader_ = read;
    serverContext_ = context;
  }
  // The audio thread's side of the above: voices read through readNow(), not rings.
  bool readsOnWaitingThread() const noexcept SPINDLE_REALTIME { return reader_ != nullptr; }
  int readNow(uint32_t slot, int64_t first, int count, float* left, float* right) noexcept SPINDLE_REALTIME;

  // ---- disk thread ----
  [[nodiscard]] bool takeOrder(StreamOrder& out) noexcept { return orders_->tryPop(out); }
  // Slot emptied after Release: reset and handed back to the audio thread.
  void giveBack(uint32_t index) noexcept;
  // Sleeps until woken (a block, a waiter, stop()); coalesces pending wake-ups.
  void sleepUntilWoken() noexcept;
  // Which waitUntilReady() call the round about to start can satisfy.
  uint64_t readySerial() const noexcept { return waitSerial_.load(std::memory_order_acquire); }
  // After a round that found nothing to do, begun after readySerial() returned `serial`.
  void settled(uint64_t serial) noexcept;
  void wake() noexcept { wake_.post(); }

 private:
  std::vector<std::unique_ptr<StreamSlot>> slots_;
  int64_t ringFrames_ = 0;
  int64_t lowWater_ = 0;
  // On the heap: the order FIFO alone is about a megabyte.
  std::unique_ptr<SpscFifo<StreamOrder, kOrderCapacity>> orders_;
  std::unique_ptr<SpscFifo<uint32_t, limits::kMaxStreams>> returns_;
  Semaphore wake_, progress_;

  void reclaim() noexcept SPINDLE_REALTIME;
  // An acquired slot whose stream is not complete holds fewer than `frames` frames.
  bool anyRingBelow(int64_t frames) const noexcept SPINDLE_REALTIME;

  // Audio thread only.
  std::vector<uint32_t> free_;  // stack, [0, freeCount_)
  int freeCount_ = 0;
  std::vector<uint8_t> inUse_;  // per slot: acquired and not yet reclaimed
  bool postedThisBlock_ = false;
  bool postedSinceWait_ = false;

  std::atomic<bool> freewheel_{false};
  Server server_ = nullptr;  // fixed while rendering (serveOnWaitingThread)
  Reader reader_ = nullptr;
  void* serverContext_ = nullptr;
  // Waiter -> disk: serial of the latest waitUntilReady(); disk -> waiter: the serial
  // its last quiet round began after. `waiters_` keeps the disk from posting progress
  // nobody will take.
  std::atomic<uint64_t> waitSerial_{0};
  std::atomic<uint64_t> settledSerial_{0};
  std::atomic<int> waiters_{0};
};

// ------------------------------------------------------------------------------------
// Implementation

inline StreamBank::StreamBank(int streams, int64_t ringFrames, int64_t lowWaterFrames)
    : ringFrames_(ringFrames),
      lowWater_(lowWaterFrames),
      orders_(std::make_unique<SpscFifo<StreamOrder, kOrderCapacity>>()),
      returns_(std::make_unique<SpscFifo<uint32_t, limits::kMaxStreams>>()) {
  streams = streams < 0 ? 0 : (streams > limits::kMaxStreams ? limits::kMaxStreams : streams);
  slots_.reserve(static_cast<std::size_t>(streams));
  free_.resize(static_cast<std::size_t>(streams));
  inUse_.assign(static_cast<std::size_t>(streams), 0);
  for (int i = 0; i < streams; ++i) {
    slots_.push_back(std::make_unique<StreamSlot>());
    slots_.back()->ring.init(2, ringFrames);
    free_[static_cast<std::size_t>(i)] = static_cast<uint32_t>(streams - 1 - i);
  }
  freeCount_ = streams;
}

inline std::size_t StreamBank::ringBytes() const noexcept {
  const auto perRing = static_cast<std::size_t>(2 * (ringFrames_ + StreamRing::kGuardFrames + 16)) * sizeof(float);
  return perRing * slots_.size();
}

inline void StreamBank::reclaim() noexcept SPINDLE_REALTIME {
  uint32_t back = 0;
  while (returns_->tryPop(back)) {
    free_[static_cast<std::size_t>(freeCount_++)] = back;
    inUse_[back] = 0;
  }
}

inline bool StreamBank::anyRingBelow(int64_t frames) const noexcept SPINDLE_REALTIME {
  for (std::size_t i = 0; i < inUse_.size(); ++i) {
    if (!inUse_[i]) continue;
    const StreamSlot& s = *slots_[i];
    if (!s.complete.load(std::memory_order_acquire) && s.ring.readableFrames() < frames) return true;
  }
  return false;
}

inline int StreamBank::acquire() noexcept SPINDLE_REALTIME {
  reclaim();
  if (freeCount_ == 0) return -1;
  const uint32_t index = free_[static_cast<std::size_t>(--freeCount_)];
  inUse_[index] = 1;
  return static_cast<int>(index);
}

inline void StreamBank::post(const StreamOrder& order) noexcept SPINDLE_REALTIME {
  // Cannot fail (kOrderCapacity > 3 * streams); the result is checked all the same.
  postedThisBlock_ = orders_->tryPush(order) || postedThisBlock_;
  postedSinceWait_ = true;
}

inline void StreamBank::endBlock() noexcept SPINDLE_REALTIME {
  reclaim();
  if (!server_ && (postedThisBlock_ || anyRingBelow(ringFrames_ - ringFrames_ / 4))) wake_.post();
  postedThisBlock_ = false;
}

inline void StreamBank::giveBack(uint32_t index) noexcept {
  StreamSlot& s = *slots_[index];
  s.ring.reset(0);
  s.exitCounter.store(StreamSlot::kNoCounter, std::memory_order_relaxed);
  s.complete.store(false, std::memory_order_relaxed);
  // The push (release) orders the stores above before the audio thread's pop (acquire).
  // `returns_` holds kMaxStreams >= streams entries and a slot is in it at most once.
  [[maybe_unused]] const bool pushed = returns_->tryPush(index);
}

inline void StreamBank::sleepUntilWoken() noexcept {
  wake_.wait();
  while (wake_.tryWait()) {
  }
}

inline void StreamBank::settled(uint64_t serial) noexcept {
  settledSerial_.store(serial, std::memory_order_release);
  if (waiters_.load(std::memory_order_acquire) > 0) progress_.post();
}

inline void StreamBank::keepPace() noexcept {
  if (postedSinceWait_ || (!reader_ && anyRingBelow(lowWater_))) waitUntilReady();
}

inline void StreamBank::waitUntilReady() noexcept {
  postedSinceWait_ = false;
  if (server_) {  // no disk thread: this thread does the rounds the wait would wait for
    server_(serverContext_);
    return;
  }
  waiters_.fetch_add(1, std::memory_order_acq_rel);
  // Everything this thread did before (orders posted, frames consumed) happens-before
  // the disk thread's acquire load of the serial at the start of its next round.
  const uint64_t serial = waitSerial_.fetch_add(1, std::memory_order_acq_rel) + 1;
  while (settledSerial_.load(std::memory_order_acquire) < serial) {
    wake_.post();
    progress_.wait();  // a stale post from an earlier round only costs one more loop
  }
  waiters_.fetch_sub(1, std::memory_order_acq_rel);
}

// Freewheel only (see the header): blocking, and leaving RTSan's real-time context,
// are allowed there, never in live mode; so the effect check is waived for these two
// functions.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
inline bool StreamBank::waitForFrames(uint32_t index, uint64_t end) noexcept SPINDLE_REALTIME {
  SPINDLE_FREEWHEEL_WAIT_SCOPE;
  StreamSlot& s = *slots_[index];
  const auto there = [&s, end]() noexcept SPINDLE_REALTIME {
    const uint64_t r = s.ring.readPosition();
    return static_cast<int64_t>(end - r) <= s.ring.readableFrames() || s.complete.load(std::memory_order_acquire);
  };
  constexpr int kRounds = 8;  // each round fills every low ring; more would mean a stuck file
  for (int round = 0; round < kRounds && (round == 0 || !there()); ++round) waitUntilReady();
  return there();
}

// Offline only (serveOnWaitingThread with a Reader): there the render's own thread
// decodes, as the disk thread would.
inline int StreamBank::readNow(uint32_t slot, int64_t first, int count, float* left, float* right) noexcept
    SPINDLE_REALTIME {
  SPINDLE_FREEWHEEL_WAIT_SCOPE;
  return reader_(serverContext_, slot, first, count, left, right);
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace spindle::rt
