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
//       f <  totalFrames  : decoded from the file (AudioFileReader, seek on a jump)
//       f >= totalFrames  : zeros (what the in-RAM guard and copy path give)
//
// up to the order's lastFrame (which includes the interpolator's look-ahead), then
// marks the slot complete. A file that cannot be opened or decoded marks the slot
// complete too, so nothing waits on it; the voice underruns and ends, and takeError()
// holds one sentence naming the file for the disk thread's error log.
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
#include "stream/AudioFile.h"
#include "stream/FileCache.h"

namespace spindle::stream {

// Disk thread statistics; written by the disk thread (relaxed), read by anyone.
struct DiskCounters {
  std::atomic<uint64_t> framesDecoded{0};  // decoded from files
  std::atomic<uint64_t> framesFromRam{0};  // copied from preloads (loops wrapping into them)
  std::atomic<uint64_t> reads{0};          // file reads (one per run decoded)
  std::atomic<uint64_t> seeks{0};
  std::atomic<uint64_t> failures{0};       // streams whose file could not be opened or decoded
  std::atomic<uint64_t> streamsOpened{0};
  std::atomic<uint64_t> rounds{0};         // disk thread rounds that did some work
  // Slowest stream start: from the disk thread taking an Open order to the stream's
  // first frames committed (queueing behind other reads included). The preload must
  // cover this plus one block.
  std::atomic<uint64_t> worstFirstFillMicros{0};
};

class DiskStream {
 public:
  // Tests: runs before every file read (a slow disk); returning false fails that read
  // as an I/O error (EIO) from the device would.
  using ReadHook = std::function<bool()>;

  void open(const rt::StreamOrder& order, rt::StreamSlot& slot, FileCache& cache, DiskCounters& counters,
            int64_t readAhead);
  void exit(const rt::StreamOrder& order);
  // Release: gives the reader back to the cache; the slot is reset by the bank.
  void close(FileCache& cache);

  bool isOpen() const noexcept { return slot_ != nullptr; }
  bool complete() const noexcept { return complete_; }
  // Why the stream failed, once (then empty): "cannot read sample file X ...".
  std::string takeError() { return std::exchange(error_, {}); }
  // The sample file of the stream opened last ("" before the first open).
  const char* file() const noexcept { return sample_ && sample_->path ? sample_->path : ""; }
  // Frames committed and not yet consumed (a snapshot: the audio thread consumes).
  int64_t readable() const noexcept;
  // Worth a read now: less than half the ring filled (a ring holds two reads or more,
  // ringFramesFor, so a whole read fits), below the low-water mark, or able to finish
  // the stream. Not "room for a read": a new stream gets one read, not a full ring, so
  // a short note does not decode seconds it never plays.
  bool needsService(int64_t lowWater) const noexcept;
  // Writes up to `frames` frames (fewer when the ring or the stream ends); returns
  // the frames committed.
  int64_t fill(int64_t frames, const ReadHook& beforeRead, DiskCounters& counters);

 private:
  int64_t produce(float* left, float* right, int64_t u, int64_t frames, const ReadHook& beforeRead,
                  DiskCounters& counters);
  int64_t decode(float* left, float* right, int64_t fileFrame, int64_t frames, const ReadHook& beforeRead,
                 DiskCounters& counters);
  void copyFromRam(float* left, float* right, int64_t fileFrame, int64_t frames) const noexcept;
  void finish(bool failed, DiskCounters& counters) noexcept;
  void fail(std::string why, DiskCounters& counters);
  void noteFirstFill(DiskCounters& counters) noexcept;
  void adviseAhead(int64_t frames) noexcept;

  rt::StreamSlot* slot_ = nullptr;
  const SampleData* sample_ = nullptr;
  std::unique_ptr<AudioFileReader> reader_;
  LoopMap loop_;
  int64_t next_ = 0;       // unrolled frame the ring's next counter receives
  int64_t last_ = 0;       // last unrolled frame to write
  int64_t readerAt_ = -1;  // file frame the reader decodes next; -1 unknown
  bool complete_ = false;
  bool filledOnce_ = false;
  std::chrono::steady_clock::time_point openedAt_;
  std::string error_;
};

}  // namespace spindle::stream
