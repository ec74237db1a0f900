#pragma once
// DiskStream: the disk thread's side of one stream slot.
//
// Thread: the disk thread only. It follows the stream's LoopMap in unrolled frames,
// exactly as the voice's SampleSource reads them, and pushes runs of them into the
// slot's StreamRing (rt/StreamRing.h): references to where the frames already lie,
//
//   unrolled u ──LoopMap::locate──► file frame f
//       f <  framesInRam  : the preload in RAM (the very values an all-in-RAM render reads)
//       f <  totalFrames  : the decoded block holding f (BlockCache: decoded once,
//                           shared by every stream of the sample), pinned for the run
//       f >= totalFrames  : zeros (what the in-RAM guard and copy path give)
//
// up to the order's lastFrame (which includes the interpolator's look-ahead), then
// marks the slot complete. A run is at most one block or one stretch of the loop map
// long. The blocks of the runs the voice has consumed are unpinned (release()), so a
// stream holds pinned only the blocks between its voice and the end of its runs: a
// few, which the block cache's budget bounds (stream/DiskThread.h sizes it).
//
// A stream holds no decoder of its own (readers live in the FileCache) but keeps a bare
// descriptor of its file open, so a file deleted while it plays still decodes. A file
// that cannot be opened or decoded marks the slot complete, so nothing waits on it;
// the voice underruns and ends, and takeError() holds one sentence naming the file.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "core/LoopMap.h"
#include "core/SampleData.h"
#include "rt/StreamBank.h"
#include "stream/BlockCache.h"
#include "stream/FileCache.h"

namespace spindle::stream {

// Disk thread statistics; written by the disk thread (relaxed), read by anyone.
struct DiskCounters {
  std::atomic<uint64_t> framesDecoded{0};   // decoded from files (into cache blocks)
  std::atomic<uint64_t> framesConsumed{0};  // unrolled frames voices read, counted at Release
  std::atomic<uint64_t> blockHits{0};       // a stream found its next block decoded
  std::atomic<uint64_t> blockMisses{0};     // ... or had it decoded
  std::atomic<uint64_t> cacheBytes{0};      // decoded blocks held (BlockCache::bytesHeld)
  std::atomic<uint64_t> pinnedBlocks{0};    // blocks streams hold pinned now
  std::atomic<uint64_t> runsPushed{0};      // runs handed to voices
  std::atomic<uint64_t> framesFromRam{0};   // pushed from preloads (loops wrapping into them)
  std::atomic<uint64_t> reads{0};           // file reads (one per block decoded)
  std::atomic<uint64_t> seeks{0};
  std::atomic<uint64_t> failures{0};        // streams whose file could not be opened or decoded
  std::atomic<uint64_t> cacheFull{0};       // a push put off: every block of the cache pinned
  std::atomic<uint64_t> streamsOpened{0};
  std::atomic<uint64_t> rounds{0};          // disk thread rounds that did some work
  // Slowest stream start: from the disk thread taking an Open order to the stream's
  // first run pushed (queueing behind other reads included). The preload must cover
  // this at the voice's speed.
  std::atomic<uint64_t> worstFirstFillMicros{0};
};

// What every stream of one disk thread shares.
struct DiskShared {
  FileCache& files;
  BlockCache& blocks;
  DiskCounters& counters;
  const BlockCache::ReadHook& beforeRead;  // tests: runs before every file read
};

class DiskStream {
 public:
  DiskStream() = default;
  ~DiskStream();
  DiskStream(const DiskStream&) = delete;
  DiskStream& operator=(const DiskStream&) = delete;

  // Tests: runs before every file read (a slow disk); returning false fails that read
  // as an I/O error (EIO) from the device would.
  using ReadHook = BlockCache::ReadHook;

  // Opens the file once (through the FileCache) to report a missing or unreadable
  // file at once, as a failed stream.
  void open(const rt::StreamOrder& order, rt::StreamSlot& slot, DiskShared& shared);
  void exit(const rt::StreamOrder& order);
  // Release: unpins every block its runs hold and counts the frames the voice read;
  // the slot is reset by the bank.
  void close();

  bool isOpen() const noexcept { return slot_ != nullptr; }
  bool complete() const noexcept { return complete_; }
  // Why the stream failed, once (then empty): "cannot read sample file X ...".
  std::string takeError() { return std::exchange(error_, {}); }
  // The sample file of the stream opened last ("" before the first open).
  const char* file() const noexcept { return sample_ && sample_->path ? sample_->path : ""; }

  // Unpins the blocks of the runs the voice has consumed since the last call.
  void release() noexcept;
  // Where the runs end (unrolled), and the voice's reach and speed (as it published them).
  int64_t pushedEnd() const noexcept { return next_; }
  int64_t firstFrame() const noexcept { return first_; }
  int64_t reach() const noexcept;
  float speed() const noexcept;
  // True when there is something to push below unrolled frame `target` (the stream is
  // open, not complete, its runs end before it and its ring is not full).
  bool wants(int64_t target) const noexcept;
  // Pushes runs until they reach `target`, the ring is full, the stream ends or a block
  // cannot be had; returns the runs pushed.
  int push(int64_t target);
  // Frames per decoded block of this stream's sample (the read-ahead is sized by it).
  int64_t blockFrames() const noexcept;

 private:
  bool pushRun();
  int64_t lastFileFrame() const noexcept;
  void follow();
  void finish(bool failed) noexcept;
  void fail(std::string why);
  void noteFirstRun() noexcept;

  DiskShared* shared_ = nullptr;
  rt::StreamSlot* slot_ = nullptr;
  const SampleData* sample_ = nullptr;
  // The block each run in the ring pins (null for preload and zero runs), by run index.
  std::array<const BlockCache::Block*, rt::StreamRing::kCapacity> pins_{};
  uint64_t released_ = 0;  // runs before this index are unpinned
  BlockCache::Cursor cursor_;  // followed by the cache while open
  LoopMap loop_;
  int64_t next_ = 0;       // unrolled frame the next run starts at
  int64_t first_ = 0;      // unrolled frame of the order's firstFrame
  int64_t last_ = 0;       // last unrolled frame to push
  int fd_ = -1;            // the file, held open while the stream is
  bool complete_ = false;
  bool failed_ = false;    // complete because the file failed
  bool pushedOnce_ = false;
  std::chrono::steady_clock::time_point openedAt_;
  std::string error_;
};

}  // namespace spindle::stream
