#pragma once
// Streaming: the disk side of a Spindle session in one object: the preload policy for
// the sample pool, the stream slots (rt::StreamBank, allocated up front) and the
// disk thread that fills them.
//
// Thread: the owner (control side) constructs it before the Engine (EngineConfig::
// streams = bank()) and destroys it after the Engine. With preloadFrames < 0 streaming
// is off: samples load whole, there is no bank and no disk thread.
//
// Memory is fixed at construction: preload frames per sample (in the pool, in each
// file's own format) plus the block cache's budget (here), which bounds everything the
// streams read, their pinned blocks included. The stream slots themselves hold
// references (a few KiB each). Nothing grows with the library beyond the preload.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rt/StreamBank.h"
#include "stream/DiskThread.h"
#include "stream/SamplePool.h"

namespace spindle::stream {

struct StreamingOptions {
  // The live preload per sample, at the sample's own pitch from its start (more for one
  // its regions play faster or later into: stream::PreloadNeed). An SSD (or the page
  // cache) starts a stream in a few milliseconds, 4096 frames cover 85 ms at 48 kHz; a
  // spinning disk wants kSpinningDiskPreloadFrames. spindle-diskbench measures this
  // machine's (docs/streaming.md, "Choosing the preload").
  static constexpr int64_t kDefaultPreloadFrames = 4096;
  static constexpr int64_t kSpinningDiskPreloadFrames = 32768;
  int64_t preloadFrames = kDefaultPreloadFrames;  // < 0: every sample whole in RAM
  int streams = 0;                                // stream slots; 0 = streamsFor(polyphony)
  std::size_t memoryBudget = 0;                   // the pool's PoolOptions::memoryBudget (0: default)
  DiskOptions disk;
};

// A live session's options: the preload (< 0: every sample whole in RAM) and the block
// cache's budget (0: the default); a file is held whole when it is no longer than its
// preload plus one decoded block (stream::BlockCache::kBlockBytes of 16-bit stereo).
StreamingOptions liveStreamingOptions(int64_t preloadFrames, std::size_t cacheBytes = 0);

// "12.3 MiB", "4.1 KiB": the memory lines' figures.
std::string mib(std::size_t bytes);
std::string kib(std::size_t bytes);

// Voices the engine may sound at once for a polyphony: the limit plus the steal margin
// of faded-out voices (engine::VoicePool::marginFor, checked by a test). At most this
// many streams are open and pin blocks at once: the block cache's floor counts them.
int voicesFor(int polyphony) noexcept;
// The default stream slots: one per voice, and as many again for streams released and
// not yet taken back from the disk thread (a slot is free again only after its Release
// order went round). A note that steals a voice when the pool is full ends that voice
// and starts its own at once: with one slot per voice it would find none and starve,
// and an offline render would then differ from the all-in-RAM one. A slot holds a few
// KiB (its ring of runs), not audio.
int streamsFor(int polyphony) noexcept;

// The sample pool's preload policy for these options. The pool (its SampleData) must
// outlive the Streaming object: the disk thread reads preloads and paths until it stops.
PoolOptions poolOptionsFor(const StreamingOptions& options) noexcept;

class Streaming {
 public:
  Streaming(StreamingOptions options, int polyphony);
  ~Streaming();
  Streaming(const Streaming&) = delete;
  Streaming& operator=(const Streaming&) = delete;

  bool enabled() const noexcept { return bank_ != nullptr; }
  rt::StreamBank* bank() noexcept { return bank_.get(); }
  const DiskThread* disk() const noexcept { return disk_.get(); }
  // The disk thread's failures since the last call (DiskThread::takeErrors), for the
  // session's problem log.
  std::vector<DiskError> takeDiskErrors() { return disk_ ? disk_->takeErrors() : std::vector<DiskError>{}; }
  PoolOptions poolOptions() const noexcept { return poolOptionsFor(options_); }
  // The block cache's budget (decoded and pinned blocks together), and the slots'.
  std::size_t cacheBytes() const noexcept;
  std::size_t slotBytes() const noexcept { return bank_ ? bank_->slotBytes() : 0; }

  // One line: "<preload> MiB preload (<n> of <m> samples streamed, <k> KiB a sample) +
  // <s> streams + <cache> MiB block cache = <total> MiB" (the cache's budget: it is
  // backed as blocks are decoded). loopTailBytes: the program's loop tails
  // (core/LoopTail.h), added when not 0.
  std::string budget(const SamplePool& pool, std::size_t loopTailBytes = 0) const;
  // A live session's line (its pools hold `sampleBytes`, `bytesPerSample` a sample):
  // "<n> MiB samples in RAM (<k> KiB a sample) + <c> MiB block cache (<p> blocks
  // pinned, <d> MiB decoded) + <s> streams (<r> KiB)".
  std::string liveMemory(std::size_t sampleBytes, std::size_t bytesPerSample) const;
  // One line of the disk thread's figures: streams, reads (one per block decoded),
  // seeks, frames decoded and frames the voices read (and their ratio), block cache
  // hits and size, failures, the voices' underruns (passed in: the engine counts them),
  // the slowest stream start.
  std::string report(uint64_t underruns) const;

 private:
  StreamingOptions options_;
  std::unique_ptr<rt::StreamBank> bank_;
  std::unique_ptr<DiskThread> disk_;
};

}  // namespace spindle::stream
