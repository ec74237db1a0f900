#pragma once
// BlockCache: decoded audio shared by every stream, in fixed-size blocks.
//
// Thread: the disk thread only (not synchronised). The audio thread never sees a
// block: a stream copies frames from blocks into its voice's StreamRing, which the
// audio thread reads as before.
//
// A block holds kBlockFrames planar float frames of one sample file, keyed by
// (sample, block index): block k holds file frames [k * kBlockFrames, (k + 1) *
// kBlockFrames), fewer at the file's end. A block is decoded once, on its first
// use, and serves every later stream of the same sample while it stays in the
// cache (a repeated note, a chord over the same sample, a second velocity layer's
// note on a shared file):
//
//   stream A (note 1) ──┐        ┌─────────── blocks (sample, k) ───────────┐
//   stream B (note 2) ──┼─ pin ─►│ [s1,2] [s1,3] [s7,2] [s7,3] ... [free]   │
//   stream C (chord)  ──┘        └─── 2 LRU lists of unpinned blocks ───────┘
//
// Pins: a stream pins the block it copies from until it moves to the next one, so
// a block half copied is never evicted under it (a stream pins at most one block,
// and the cache holds at least streams + 2 blocks, so a free or unpinned block
// always exists).
//
// Eviction (segmented LRU): an unpinned block waits in one of two LRU lists. A block
// only one stream has used so far is on probation; one that a second stream found
// in the cache is protected (at most half the cache; past that the oldest protected
// block goes back on probation). The victim is the oldest block on probation, else
// the oldest protected one. A dense song streams many blocks once (the tail of a
// long chord note) and a few blocks again and again (the first blocks past the
// preload of a repeated note): plain LRU let the first kind flush the second.
//
// Memory: capacity blocks of stereo storage, mapped at construction and backed
// only once written: the resident size grows with the blocks decoded, up to the
// budget, and never past it.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/SampleData.h"
#include "stream/FileCache.h"

namespace spindle::stream {

struct DiskCounters;

class BlockCache {
 public:
  // 8192 frames: 64 KiB of stereo float. Small enough that a pinned block per stream
  // costs 20 MiB at 320 streams, large enough that a FLAC block (4096 frames from
  // most encoders) never straddles two cache blocks at the usual 4096 alignment.
  static constexpr int64_t kBlockFrames = 8192;
  static constexpr std::size_t kBlockBytes = 2 * kBlockFrames * sizeof(float);
  // 128 MiB: on the dense piano bench (README.md, "Disk streaming") the streamed
  // render takes about 1.6x the all-in-RAM render's CPU (48 MiB: about 2.8x; 512 MiB,
  // every block the song touches: about 1.2x) at 227 MiB peak RSS.
  static constexpr std::size_t kDefaultBudget = 128u << 20;

  struct Block {
    const SampleData* sample = nullptr;
    int64_t index = -1;      // block index in the file; -1: free
    int64_t frames = 0;      // frames held (kBlockFrames, fewer at the file's end)
    float* channel[2] = {nullptr, nullptr};  // mono: both the left channel
    int pins = 0;
    bool reused = false;                  // a second stream found it in the cache
    uint8_t list = 0;                     // unpinned: kProbation or kProtected
    uint32_t prev = kNone, next = kNone;  // LRU list links (unpinned blocks only)
  };
  static constexpr uint32_t kNone = ~uint32_t{0};

  // Runs before every file read (a slow or failing disk in tests); false fails it.
  using ReadHook = std::function<bool()>;

  // budgetBytes: decoded audio held at most; at least minBlocks blocks whatever it says.
  BlockCache(std::size_t budgetBytes, int minBlocks);
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // The block holding file frame `frame` of `sample`, pinned; decoded now on a miss
  // (through a reader from `files`). nullptr when it cannot be decoded: `error` says why.
  // `heldFd`: a descriptor of the file the pinning stream holds open (or -1); when the
  // path no longer opens (the file was deleted while playing) the reader opens that.
  const Block* pin(const SampleData* sample, int64_t frame, FileCache& files, const ReadHook& beforeRead,
                   DiskCounters& counters, std::string& error, int heldFd = -1);
  void unpin(const Block* block) noexcept;

  int capacity() const noexcept { return static_cast<int>(blocks_.size()); }
  int blocksHeld() const noexcept { return static_cast<int>(byKey_.size()); }  // decoded and cached
  std::size_t bytesHeld() const noexcept { return byKey_.size() * kBlockBytes; }

 private:
  struct Key {
    const SampleData* sample;
    int64_t index;
    bool operator==(const Key& o) const noexcept { return sample == o.sample && index == o.index; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept {
      return std::hash<const void*>()(k.sample) ^ (static_cast<std::size_t>(k.index) * 0x9E3779B97F4A7C15ull);
    }
  };

  uint32_t takeVictim() noexcept;
  bool decode(Block& block, FileCache& files, const ReadHook& beforeRead, DiskCounters& counters,
              std::string& error, int heldFd);
  struct List {
    uint32_t oldest = kNone, newest = kNone;
    int size = 0;
  };
  static constexpr uint8_t kProbation = 0, kProtected = 1;
  bool moveTo(AudioFileReader& reader, int64_t position, int64_t first, Block& scratch, DiskCounters& counters);
  void unlink(uint32_t i) noexcept;
  void pushRecent(uint32_t i, uint8_t list) noexcept;

  float* storage_ = nullptr;
  std::size_t storageBytes_ = 0;
  std::vector<Block> blocks_;
  std::vector<uint32_t> free_;  // never used or dropped after a failed decode
  std::unordered_map<Key, uint32_t, KeyHash> byKey_;
  List lists_[2];  // unpinned cached blocks, oldest first: probation, protected
};

}  // namespace spindle::stream
