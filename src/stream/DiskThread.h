#pragma once
// DiskThread: the "disk" thread that fills every open stream's StreamRing.
//
// Threads: constructed and destroyed by the owner (control or loader side); the
// thread it starts is the only consumer of the StreamBank's orders and the only
// producer of its rings. The audio thread never calls anything here: it talks to the
// bank (rt/StreamBank.h).
//
// One round: take every pending order (Open / Exit / Release), then serve the streams
// that need it, emptiest ring first, up to readFrames() frames each, copied from the
// decoded-block cache (BlockCache.h), which decodes a block on its first use only. Rounds
// repeat until one finds nothing to do; then the thread sleeps on the bank's
// semaphore, which the audio thread posts at most once per block.
//
// Priority: SCHED_FIFO at `fifoPriority` (below the audio and MIDI threads) when the
// system allows it, otherwise a normal thread; realtime() says which.
//
// Offline (DiskOptions::threaded false) there is no thread and no ring is filled: the
// renderer's thread takes the orders whenever the bank would wait (serveRounds), and
// each read of a voice copies its frames from the decoded blocks into the voice's
// span (readFor). The rings' memory is left to the block cache (Streaming.cpp).
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
  // One read, in bytes of 16-bit stereo audio (4 bytes a frame): a read is
  // readBytes / 4 frames whatever the file's format. 256 KiB - 1 MiB per the
  // measurements in DESIGN.md.
  int64_t readBytes = kDefaultReadBytes;
  int cacheLimit = 64;    // idle open files kept (FileCache)
  int exactCacheLimit = 64;  // of those, files that seek exactly (PCM, FLAC; FileCache.h)
  // Decoded audio the block cache may hold (BlockCache); at least 2 blocks per stream slot.
  std::size_t cacheBytes = BlockCache::kDefaultBudget;
  int fifoPriority = 10;  // SCHED_FIFO priority when allowed; 0 = always a normal thread
  // false: no thread. The orders are taken on the thread that waits for the disk, and
  // voices read the decoded blocks through the bank, with no rings
  // (rt::StreamBank::serveOnWaitingThread): an offline render, which waits anyway.
  bool threaded = true;
  DiskStream::ReadHook beforeRead;  // tests: runs before every file read (a slow disk)

  int64_t readFrames() const noexcept { return std::max<int64_t>(4096, readBytes / 4); }
};

// Frames one voice may read within one block: kMaxIncrement (32) source frames per
// output frame, plus the interpolator's taps, and at least one source span.
int64_t lowWaterFrames(int maxBlockFrames) noexcept;
// Ring capacity: the smallest power of two holding the low-water mark plus 4096
// frames. Frames come from decoded blocks in RAM, so a top-up is a copy, not a read:
// a ring needs what a voice can read in one block and a margin for the disk thread's
// round, not seconds. 16384 frames (128 KiB stereo) at a 256-frame period.
int64_t ringFramesFor(const DiskOptions& options, int maxBlockFrames) noexcept;
// An offline (freewheel) render's rings: a voice that finds frames missing inside a
// block waits for the disk thread there (StreamReader::copy), so a ring needs to hold
// what one read of the voice asks for, not everything a voice five octaves up reads in
// a block. A voice reads one chunk at a time (engine::RenderScratch::kChunkFrames, 64
// output frames): at most 64 x 32 (kMaxIncrement) source frames and the interpolator's
// taps (2 x kGuardFrames), and the ring's read position trails the chunk's first frame
// by fewer than kGuardFrames (frames the last chunk's taps stepped over, not written
// yet): 2144 frames, so 4096 (32 KiB stereo), a quarter of the 256-frame block's live
// ring. The render waits between blocks when a ring holds less than half of it
// (offlineLowWaterFrames).
int64_t offlineRingFrames() noexcept;
int64_t offlineLowWaterFrames() noexcept;

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
  static int readFor(void* self, uint32_t slot, int64_t first, int count, float* left, float* right);
  void setPriority();
  bool round();
  bool takeOrders();
  bool serveStreams();
  void noteError(DiskStream& stream);

  rt::StreamBank& bank_;
  DiskOptions options_;
  FileCache cache_;
  BlockCache blocks_;
  DiskCounters counters_;
  DiskShared shared_{cache_, blocks_, counters_, options_.beforeRead};
  std::vector<DiskStream> streams_;  // index = slot
  std::vector<std::pair<int64_t, uint32_t>> needy_;  // serveStreams(): (readable, slot)
  std::mutex errorsMutex_;  // disk thread <-> takeErrors(); never the audio thread
  std::vector<DiskError> errors_;
  std::string lastError_;
  std::atomic<uint64_t> errorsDropped_{0};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> realtime_{false};
  std::thread thread_;  // started in the constructor's body, once every member exists
};

}  // namespace spindle::stream
