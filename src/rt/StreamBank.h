#pragma once
// StreamBank: the contract between the audio thread and the disk thread.
//
// Every stream slot (a StreamRing of frame runs plus a few atomics) is allocated up
// front, so memory never grows with the library. The audio thread owns which slots are
// in use: it takes one from its free stack, ORDERS it served (the disk thread picks
// the order up later), reads frames through the runs the disk pushes, and hands the
// slot back with a Release order. The disk thread empties the slot and returns it
// through a FIFO of its own.
//
//   audio thread                      orders (SpscFifo, audio -> disk)       disk thread
//   acquire() --- Open{slot, sample, loop, first frame} ----------------------> opens the file,
//   read runs, consume  <========== StreamRing (runs into decoded blocks) ===== pins blocks, pushes runs
//   reach, speed (relaxed) =========================================================> how far ahead to push
//   leaveLoop --- Exit{slot, loop, exitFrame} --------------------------------> follows the new
//   exitIndex (acquire) <========== the first run of the new map ============= loop map
//   voice ends -- Release{slot} ---------------------------------------------> unpins, resets
//   free stack <--------------------- returns (SpscFifo, disk -> audio) ------ gives it back
//   endBlock(): wake.post() at most once per block (the only syscall of the audio thread),
//   when an order was posted, a voice consumed a run, or every kHeartbeatBlocks blocks
//   while a stream is open
//
// Invariants:
//  - Orders never fail: a slot sees at most Open, Exit and Release between two trips
//    through the free stack, so at most 3 * kMaxStreams orders are outstanding and
//    kOrderCapacity is larger.
//  - Runs follow unrolled order: Open says the first run starts at unrolled
//    `firstFrame` and each run starts where the one before ended. After an Exit the disk
//    publishes in exitIndex the index of the first run that follows the new map (it
//    starts at exitFrame, or earlier if the disk had not reached exitFrame: the two maps
//    agree before it). Runs before exitIndex are valid only for frames before
//    exitFrame; the consumer skips what lies past it. Until it sees exitIndex, it treats
//    every run as old (it loads the write position first, then exitIndex: a run pushed
//    after exitIndex was published cannot be seen without it).
//  - A slot is reset (ring counters, flags) by the disk thread when it takes Release,
//    before it pushes the slot to `returns`; the FIFO's release/acquire pair orders
//    that reset before the audio thread reuses the slot.
//  - The disk thread keeps a live stream's runs ahead of the voice's `reach` (where its
//    reads have got to) by what its `speed` and the block length ask (stream/DiskThread.h);
//    nothing in the audio thread ever waits for it.
//
// Waiting renders (offline, JACK freewheel) are the Engine's waiting process
// (engine/Engine.h): before each stretch of frames between events it calls prepare(n),
// which returns once the disk has taken every order posted so far and every open
// stream holds runs past what its voice can read in n frames at the highest increment
// (demandFrames). Then no voice misses a frame and the render equals an all-in-RAM one.
// With a disk thread prepare() wakes it and waits; an offline render has none: its own
// thread runs the disk's rounds there (serveOnWaitingThread), which keeps the decoded
// frames in its own core's caches. The voices read the same way in every mode.
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

namespace spindle::rt {

enum class StreamOrderType : uint8_t { Open, Exit, Release };

struct StreamOrder {
  StreamOrderType type = StreamOrderType::Release;
  uint32_t slot = 0;
  const SampleData* sample = nullptr;  // Open: what to stream (sample->path)
  LoopMap loop;                        // Open, Exit: the map to follow from now on
  int64_t firstFrame = 0;              // Open: unrolled frame the first run starts at
  int64_t lastFrame = 0;               // Open, Exit: last unrolled frame to deliver, look-ahead included
  int64_t exitFrame = 0;               // Exit: first unrolled frame the new map changes
};
static_assert(std::is_trivially_copyable_v<StreamOrder>);

struct StreamSlot {
  static constexpr uint64_t kNoIndex = ~uint64_t{0};
  StreamRing runs;
  // Disk -> audio: index of the Exit order's first new run; kNoIndex until known.
  std::atomic<uint64_t> exitIndex{kNoIndex};
  // Disk -> audio: every run up to lastFrame is pushed (or the file failed: none will come).
  std::atomic<bool> complete{false};
  // Disk -> anyone (relaxed, for status): the stream is open, and where its runs end.
  std::atomic<bool> serving{false};
  std::atomic<int64_t> pushedEnd{0};
  // Audio -> disk (relaxed: a hint for how far ahead to push; a waiting render orders
  // them through prepare()): one past the last unrolled frame the voice has read, and
  // its source frames per output frame.
  alignas(kCacheLine) std::atomic<int64_t> reach{0};
  std::atomic<float> speed{1.0f};
};

class StreamBank {
 public:
  static constexpr std::size_t kOrderCapacity = 16384;
  static_assert(kOrderCapacity >= 3 * static_cast<std::size_t>(limits::kMaxStreams));
  // While a stream is open the disk is woken at least this often (a voice's speed may
  // rise between the runs it consumes).
  static constexpr int kHeartbeatBlocks = 4;

  // Owner thread: allocates `streams` slots (at most limits::kMaxStreams).
  explicit StreamBank(int streams);
  StreamBank(const StreamBank&) = delete;
  StreamBank& operator=(const StreamBank&) = delete;

  // ---- any thread (fixed after construction) ----
  int size() const noexcept SPINDLE_REALTIME { return static_cast<int>(slots_.size()); }
  StreamSlot& slot(uint32_t index) noexcept SPINDLE_REALTIME { return *slots_[index]; }
  std::size_t slotBytes() const noexcept { return sizeof(StreamSlot) * slots_.size(); }

  // ---- audio thread ----
  // A free slot's index, or -1 when all are in use (the voice then plays its preload).
  int acquire() noexcept SPINDLE_REALTIME;
  // Queues an order; never fails (see the invariants above).
  void post(const StreamOrder& order) noexcept SPINDLE_REALTIME;
  // A voice consumed a run: the disk may have more to push.
  void noteConsumed() noexcept SPINDLE_REALTIME { consumedThisBlock_ = true; }
  // Once per process() of `frames` frames: takes back released slots, records the
  // block's length (the disk's read-ahead follows the running period) and wakes the
  // disk thread when it has something to do (see the drawing).
  void endBlock(int frames) noexcept SPINDLE_REALTIME;
  // Slots not yet back from the disk thread (Release taken when last reclaimed).
  int slotsInUse() const noexcept SPINDLE_REALTIME { return size() - freeCount_; }

  // ---- any thread ----
  // The length of the audio thread's last block (0 before the first).
  int periodFrames() const noexcept SPINDLE_REALTIME { return period_.load(std::memory_order_relaxed); }
  // The open stream closest to running dry: its voice's output frames left before the
  // runs run out (frames pushed past its reach over its speed). Only atomics are read;
  // a snapshot, exact enough for display. open == 0: no stream open.
  struct Ahead {
    int64_t lowestFrames = 0;
    int open = 0;
  };
  Ahead lowestAhead() const noexcept;

  // ---- a waiting render (offline, freewheel), never the live audio thread ----
  // Returns once the disk has taken every order posted so far and every open stream
  // holds runs up to reach + demandFrames(frames) (or to its end): what its voice can
  // read in the next `frames` output frames. frames == 0: the live read-ahead only.
  // At once when no stream is open and no order was posted since the last call.
  // The thread that calls it is the bank's audio side (it posts the orders).
  void prepare(int frames) noexcept;
  void waitUntilReady() noexcept { prepare(0); }
  // Frames a voice may read past its reach in `frames` output frames: kMaxIncrement (32)
  // source frames each, the interpolator's taps and the last frame's increment.
  static int64_t demandFrames(int frames) noexcept {
    return frames > 0 ? int64_t{frames + 2} * kMaxIncrement + 2 * limits::kGuardFrames : 0;
  }
  static constexpr int64_t kMaxIncrement = 32;  // engine::RenderScratch::kMaxIncrement
  // No disk thread (an offline render): prepare() runs `serve(context)` on the waiting
  // thread instead, and endBlock() wakes nobody. Set by the disk side before rendering
  // starts; nullptr goes back to waiting for a thread.
  using Server = void (*)(void* context);
  void serveOnWaitingThread(Server serve, void* context) noexcept {
    server_ = serve;
    serverContext_ = context;
  }

  // ---- disk thread ----
  [[nodiscard]] bool takeOrder(StreamOrder& out) noexcept { return orders_->tryPop(out); }
  // Slot emptied after Release: reset and handed back to the audio thread.
  void giveBack(uint32_t index) noexcept;
  // Sleeps until woken (a block, a waiter, stop()); coalesces pending wake-ups.
  void sleepUntilWoken() noexcept;
  // Which prepare() call the round about to start can satisfy, and what it asks.
  uint64_t readySerial() const noexcept { return waitSerial_.load(std::memory_order_acquire); }
  int64_t demand() const noexcept { return demand_.load(std::memory_order_relaxed); }
  // After a round that found nothing to do, begun after readySerial() returned `serial`.
  void settled(uint64_t serial) noexcept;
  void wake() noexcept { wake_.post(); }

 private:
  std::vector<std::unique_ptr<StreamSlot>> slots_;
  // On the heap: the order FIFO alone is about a megabyte.
  std::unique_ptr<SpscFifo<StreamOrder, kOrderCapacity>> orders_;
  std::unique_ptr<SpscFifo<uint32_t, limits::kMaxStreams>> returns_;
  Semaphore wake_, progress_;

  void reclaim() noexcept SPINDLE_REALTIME;

  // Audio thread only.
  std::vector<uint32_t> free_;  // stack, [0, freeCount_)
  int freeCount_ = 0;
  bool postedThisBlock_ = false;
  bool consumedThisBlock_ = false;
  bool postedSincePrepare_ = false;
  int blocksSinceWake_ = 0;

  std::atomic<int> period_{0};
  Server server_ = nullptr;  // fixed while rendering (serveOnWaitingThread)
  void* serverContext_ = nullptr;
  // Waiter -> disk: serial of the latest prepare() and the frames it asks for (stored
  // before the serial: the disk reads it after its acquire load of the serial); disk ->
  // waiter: the serial its last quiet round began after. `waiters_` keeps the disk from
  // posting progress nobody will take.
  std::atomic<int64_t> demand_{0};
  std::atomic<uint64_t> waitSerial_{0};
  std::atomic<uint64_t> settledSerial_{0};
  std::atomic<int> waiters_{0};
};

// ------------------------------------------------------------------------------------
// Implementation

inline StreamBank::StreamBank(int streams)
    : orders_(std::make_unique<SpscFifo<StreamOrder, kOrderCapacity>>()),
      returns_(std::make_unique<SpscFifo<uint32_t, limits::kMaxStreams>>()) {
  streams = std::clamp(streams, 0, limits::kMaxStreams);
  slots_.reserve(static_cast<std::size_t>(streams));
  free_.resize(static_cast<std::size_t>(streams));
  for (int i = 0; i < streams; ++i) {
    slots_.push_back(std::make_unique<StreamSlot>());
    free_[static_cast<std::size_t>(i)] = static_cast<uint32_t>(streams - 1 - i);
  }
  freeCount_ = streams;
}

inline void StreamBank::reclaim() noexcept SPINDLE_REALTIME {
  uint32_t back = 0;
  while (returns_->tryPop(back)) free_[static_cast<std::size_t>(freeCount_++)] = back;
}

inline int StreamBank::acquire() noexcept SPINDLE_REALTIME {
  reclaim();
  if (freeCount_ == 0) return -1;
  return static_cast<int>(free_[static_cast<std::size_t>(--freeCount_)]);
}

inline void StreamBank::post(const StreamOrder& order) noexcept SPINDLE_REALTIME {
  // Cannot fail (kOrderCapacity > 3 * streams); the result is checked all the same.
  postedThisBlock_ = orders_->tryPush(order) || postedThisBlock_;
  postedSincePrepare_ = true;
}

inline void StreamBank::endBlock(int frames) noexcept SPINDLE_REALTIME {
  reclaim();
  period_.store(frames, std::memory_order_relaxed);
  const bool heartbeat = slotsInUse() > 0 && ++blocksSinceWake_ >= kHeartbeatBlocks;
  if (!server_ && (postedThisBlock_ || consumedThisBlock_ || heartbeat)) {
    wake_.post();
    blocksSinceWake_ = 0;
  }
  postedThisBlock_ = consumedThisBlock_ = false;
}

inline StreamBank::Ahead StreamBank::lowestAhead() const noexcept {
  Ahead ahead;
  for (const auto& slot : slots_) {
    if (!slot->serving.load(std::memory_order_relaxed) || slot->complete.load(std::memory_order_relaxed)) continue;
    const int64_t pushed = slot->pushedEnd.load(std::memory_order_relaxed) - slot->reach.load(std::memory_order_relaxed);
    const auto frames = static_cast<int64_t>(static_cast<float>(std::max<int64_t>(pushed, 0)) /
                                             std::max(slot->speed.load(std::memory_order_relaxed), 1.0f / 16.0f));
    ahead.lowestFrames = ahead.open == 0 ? frames : std::min(ahead.lowestFrames, frames);
    ++ahead.open;
  }
  return ahead;
}

inline void StreamBank::giveBack(uint32_t index) noexcept {
  StreamSlot& s = *slots_[index];
  s.runs.reset(0);
  s.exitIndex.store(StreamSlot::kNoIndex, std::memory_order_relaxed);
  s.complete.store(false, std::memory_order_relaxed);
  s.serving.store(false, std::memory_order_relaxed);
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

inline void StreamBank::prepare(int frames) noexcept {
  if (!postedSincePrepare_ && slotsInUse() == 0) return;  // nothing the disk could do
  postedSincePrepare_ = false;
  demand_.store(demandFrames(frames), std::memory_order_relaxed);
  if (server_) {  // no disk thread: this thread does the rounds the wait would wait for
    server_(serverContext_);
    return;
  }
  waiters_.fetch_add(1, std::memory_order_acq_rel);
  // Everything this thread did before (orders posted, runs consumed, reach and demand
  // stored) happens-before the disk thread's acquire load of the serial at the start of
  // its next round.
  const uint64_t serial = waitSerial_.fetch_add(1, std::memory_order_acq_rel) + 1;
  while (settledSerial_.load(std::memory_order_acquire) < serial) {
    wake_.post();
    progress_.wait();  // a stale post from an earlier round only costs one more loop
  }
  waiters_.fetch_sub(1, std::memory_order_acq_rel);
  demand_.store(0, std::memory_order_relaxed);  // back to the live read-ahead (freewheel ended)
}

}  // namespace spindle::rt
