#pragma once
// DiskThread: the "disk" thread that keeps every open stream's runs ahead of its voice.
//
// Threads: constructed and destroyed by the owner (control or loader side); the
// thread it starts is the only consumer of the StreamBank's orders and the only
// producer of its rings. The audio thread never calls anything here: it talks to the
// bank (rt/StreamBank.h).
//
// One round: take every pending order (Open / Exit / Release), unpin the blocks of the
// runs voices have consumed, then push runs to the streams that need them, the stream
// closest to running dry first (output frames left: runs pushed past its voice's reach,
// over its speed), each up to its target:
//
//   live      reach + max(one block, kAheadPeriods periods at the voice's speed) + taps:
//             the next block is decoded while the voice still plays the one before, and a
//             period change (PipeWire) changes the read-ahead with it, nothing to resize
//   waiting   at least reach + StreamBank::demandFrames(n) (a waiting render's prepare(n))
//
// decoding a block only when it is not in the cache (BlockCache.h). Rounds repeat until
// one pushes nothing; then the thread sleeps on the bank's semaphore, which the audio
// thread posts at most once per block.
//
// Memory: the block cache's budget is the one number that bounds streaming memory; the
// blocks streams hold pinned count against it, and it is never smaller than
// minCacheBlocks() (what every stream's read-ahead spans). The rings hold references.
//
// Priority: SCHED_FIFO at `fifoPriority` (below the audio and MIDI threads) when the
// system allows it, otherwise a normal thread; realtime() says which.
//
// Offline (DiskOptions::threaded false) there is no thread: the renderer's thread runs
// the rounds whenever it would wait (StreamBank::prepare, serveRounds).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rt/StreamBank.h"
#include "stream/DiskStream.h"
#include "stream/FileCache.h"

namespace spindle::stream {

struct DiskOptions {
  static constexpr int64_t kDefaultReadBytes = 256 * 1024;
  // A file no longer than the preload plus one read, in bytes of 16-bit stereo audio (4
  // bytes a frame), is held whole: streaming it would save less than a read.
  int64_t readBytes = kDefaultReadBytes;
  int cacheLimit = 64;    // idle open files kept (FileCache)
  int exactCacheLimit = 64;  // of those, files that seek exactly (PCM, FLAC; FileCache.h)
  // Decoded audio the block cache may hold (BlockCache), pinned blocks included; at
  // least minCacheBlocks(pinningStreams).
  std::size_t cacheBytes = BlockCache::kDefaultBudget;
  // Streams that may pin blocks at once (the engine's voices); 0: every slot.
  int pinningStreams = 0;
  int fifoPriority = 10;  // SCHED_FIFO priority when allowed; 0 = always a normal thread
  // false: no thread. The rounds run on the thread that waits for the disk
  // (rt::StreamBank::serveOnWaitingThread): an offline render, which waits anyway.
  bool threaded = true;
  DiskStream::ReadHook beforeRead;  // tests: runs before every file read (a slow disk)

  int64_t readFrames() const noexcept { return std::max<int64_t>(4096, readBytes / 4); }
};

// Periods of a voice's reading a live stream's runs reach ahead, at the least.
inline constexpr int kAheadPeriods = 3;
// The live read-ahead past a voice's reach (see the drawing above).
int64_t liveAheadFrames(int64_t blockFrames, int periodFrames, float speed) noexcept;
// Blocks the cache holds at least for `streams` streams: the blocks a stream's runs span
// (the one its voice reads, those its read-ahead reaches, one more where a run straddles),
// and two spare.
int minCacheBlocks(int streams, bool waiting) noexcept;

// One stream that failed: the sample file and one sentence naming it.
struct DiskError {
  std::string file;
  std::string message;  // "cannot read sample file X at frame N: Input/output error"
};

class DiskThread {
 public:
  DiskThread(rt::StreamBank& bank, DiskOptions options);  // starts the thread (if threaded)
  ~DiskThread();                                          // stop()
  DiskThread(const DiskThread&) = delete;
  DiskThread& operator=(const DiskThread&) = delete;

  // Owner: ends the thread after its current round; idempotent.
  void stop();
  bool realtime() const noexcept { return realtime_.load(std::memory_order_acquire); }
  const DiskCounters& counters() const noexcept { return counters_; }
  int cacheBlocks() const noexcept { return blocks_.capacity(); }  // fixed at construction
  int pinnedBlocks() const noexcept { return static_cast<int>(counters_.pinnedBlocks.load(std::memory_order_relaxed)); }
  const DiskOptions& options() const noexcept { return options_; }
  // Any thread (the control side polls it): the streams that failed since the last
  // call, each with its file and one sentence naming it. Repeats of the newest message
  // are not queued again, and at most kMaxPendingErrors wait; errorsDropped() counts
  // what did not fit.
  std::vector<DiskError> takeErrors();
  uint64_t errorsDropped() const noexcept { return errorsDropped_.load(std::memory_order_relaxed); }
  static constexpr std::size_t kMaxPendingErrors = 64;

 private:
  void run();
  static void serveRounds(void* self);  // not threaded: the bank's waits call it
  void setPriority();
  bool round();
  bool takeOrders();
  bool serveStreams();
  int64_t targetFor(const DiskStream& stream, int period, int64_t demand) const noexcept;
  void noteError(DiskStream& stream);

  rt::StreamBank& bank_;
  DiskOptions options_;
  FileCache cache_;
  BlockCache blocks_;
  DiskCounters counters_;
  DiskShared shared_{cache_, blocks_, counters_, options_.beforeRead};
  std::vector<DiskStream> streams_;  // index = slot
  struct Needy {
    double framesLeft;  // output frames before the voice runs dry
    uint32_t slot;
    int64_t target;
  };
  std::vector<Needy> needy_;  // serveStreams()
  std::mutex errorsMutex_;  // disk thread <-> takeErrors(); never the audio thread
  std::vector<DiskError> errors_;
  std::string lastError_;
  std::atomic<uint64_t> errorsDropped_{0};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> realtime_{false};
  std::thread thread_;  // started in the constructor's body, once every member exists
};

}  // namespace spindle::stream
