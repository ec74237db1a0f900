#pragma once
// DiskStream: the disk thread's side of one stream slot.
//
// Thread: the disk thread only. It follows the stream's LoopMap in unrolled frames,
// exactly as the voice's SampleSource reads them, and writes each unrolled frame to
// the slot's StreamRing:
//
//   unrolled u ──LoopMap::locate──► file frame f
//       f <  framesInRam  : copied from the preload already in RAM (no I/O, and the
//                           very floats an all-in-RAM render reads)
//       f <  totalFrames  : copied from the decoded block holding f (BlockCache:
//                           decoded once, shared by every stream of the sample)
//       f >= totalFrames  : zeros (what the in-RAM guard and copy path give)
//
// up to the order's lastFrame (which includes the interpolator's look-ahead), then
// marks the slot complete. With no disk thread (an offline render) the ring stays
// empty: read() hands the voice the frames of each of its reads instead, through the
// same map and blocks, and the slot is complete only if the file fails. A stream pins the block it copies from (BlockCache.h)
// and holds no decoder of its own: readers live in the FileCache. It keeps a bare
// descriptor of its file open, so a file deleted while it plays still decodes (as
// when every stream held its own reader).
// A file that cannot be opened or decoded marks the slot complete too, so nothing
// waits on it; the voice underruns and ends, and takeError() holds one sentence
// naming the file for the disk thread's error log.
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
  std::atomic<uint64_t> framesDecoded{0};  // decoded from files (into cache blocks)
  std::atomic<uint64_t> framesConsumed{0};  // ring frames voices consumed, counted at Release
  std::atomic<uint64_t> blockHits{0};       // a stream found its next block decoded
  std::atomic<uint64_t> blockMisses{0};     // ... or had it decoded
  std::atomic<uint64_t> cacheBytes{0};      // decoded blocks held (BlockCache::bytesHeld)
  std::atomic<uint64_t> framesFromRam{0};  // copied from preloads (loops wrapping into them)
  std::atomic<uint64_t> reads{0};          // file reads (one per block decoded)
  std::atomic<uint64_t> seeks{0};
  std::atomic<uint64_t> failures{0};       // streams whose file could not be opened or decoded
  std::atomic<uint64_t> streamsOpened{0};
  std::atomic<uint64_t> rounds{0};         // disk thread rounds that did some work
  // Slowest stream start: from the disk thread taking an Open order to the stream's
  // first frames committed (queueing behind other reads included). The preload must
  // cover this plus one block.
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
  // Release: unpins its block and counts the frames the voice consumed; the slot is
  // reset by the bank.
  void close();

  bool isOpen() const noexcept { return slot_ != nullptr; }
  bool complete() const noexcept { return complete_; }
  // Why the stream failed, once (then empty): "cannot read sample file X ...".
  std::string takeError() { return std::exchange(error_, {}); }
  // The sample file of the stream opened last ("" before the first open).
  const char* file() const noexcept { return sample_ && sample_->path ? sample_->path : ""; }
  // Frames committed and not yet consumed (a snapshot: the audio thread consumes).
  int64_t readable() const noexcept;
  // Worth a top-up now: less than three quarters of the ring filled, below the
  // low-water mark, or able to finish the stream. Three quarters, not half: the disk
  // thread then tops rings up while the engine renders, before any falls below its
  // low-water mark, where an offline render stops to wait (dense piano: 4.3 s wall
  // instead of 5.4-5.8 s for the same CPU). A top-up copies from decoded blocks; only a block not
  // in the cache is decoded, so a short note decodes at most a ring ahead of its end.
  bool needsService(int64_t lowWater) const noexcept;
  // Writes up to `frames` frames (fewer when the ring or the stream ends); returns
  // the frames committed.
  int64_t fill(int64_t frames);
  // With no rings (an offline render: rt::StreamBank::readsOnWaitingThread): unrolled
  // frames [first, first + frames) into left/right (right null for mono), up to the
  // stream's last frame; returns the frames copied, fewer when the file failed.
  int64_t read(int64_t first, int64_t frames, float* left, float* right);

 private:
  int64_t produce(float* left, float* right, int64_t u, int64_t frames);
  int64_t copyFromBlocks(float* left, float* right, int64_t fileFrame, int64_t frames);
  void copyFromRam(float* left, float* right, int64_t fileFrame, int64_t frames) const noexcept;
  void unpin() noexcept;
  int64_t lastFileFrame() const noexcept;
  void follow();
  void finish(bool failed) noexcept;
  void fail(std::string why);
  void noteFirstFill() noexcept;

  DiskShared* shared_ = nullptr;
  rt::StreamSlot* slot_ = nullptr;
  const SampleData* sample_ = nullptr;
  const BlockCache::Block* block_ = nullptr;  // pinned: the block copied from last
  const BlockCache::Block* behind_ = nullptr;  // read(): the one before it, pinned too
  bool voiceReads_ = false;                    // read() was called: no ring, the voice reads here
  BlockCache::Cursor cursor_;                 // followed by the cache while open
  LoopMap loop_;
  int64_t next_ = 0;       // unrolled frame the ring's next counter receives
  int64_t first_ = 0;      // unrolled frame of the order's firstFrame
  int64_t readEnd_ = 0;    // read(): one past the last unrolled frame copied out
  int64_t last_ = 0;       // last unrolled frame to write
  uint64_t startCounter_ = 0;  // ring counter at open
  int fd_ = -1;                // the file, held open while the stream is
  bool complete_ = false;
  bool failed_ = false;        // complete because the file failed
  bool filledOnce_ = false;
  std::chrono::steady_clock::time_point openedAt_;
  std::string error_;
};

}  // namespace spindle::stream
