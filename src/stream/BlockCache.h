#pragma once
// BlockCache: decoded audio shared by every stream, in fixed-size blocks.
//
// Thread: the disk thread only (not synchronised). The audio thread reads a block's
// frames in place, through the runs a stream pushes into its voice's StreamRing
// (rt/StreamRing.h), while the stream keeps the block pinned; it never calls in here.
//
// A block holds kBlockBytes of one sample file's planar frames, keyed by (sample,
// block index): block k holds file frames [k * F, (k + 1) * F), fewer at the file's
// end, where F = framesPerBlock() depends on the sample: a file of 16-bit (or
// narrower) integer samples is held as 16-bit integers, anything else as float, so
// F is 8192 for 16-bit stereo, 4096 for 24-bit or float stereo (twice that for
// mono). The voice converts to float as it reads (core/SampleData.h): v / 32768, exactly
// the float a whole-file decode gives, so renders stay bit-identical at half the
// memory of float blocks. A block is decoded once, on its first use, and serves every
// later stream of the same sample while it stays in the cache (a repeated note, a
// chord over the same sample, a second velocity layer's note on a shared file):
//
//   stream A (note 1) ──┐        ┌─────────── blocks (sample, k) ───────────┐
//   stream B (note 2) ──┼─ pin ─►│ [s1,2] [s1,3] [s7,2] [s7,3] ... [free]   │
//   stream C (chord)  ──┘        └─── 2 LRU lists of unpinned blocks ───────┘
//
// Seek points: for native FLAC the cache remembers the byte offset of every block's
// first FLAC frame once a reader stood there (the preload's end comes from the
// loader: SampleData::streamByte), so decoding a block again after its eviction, or
// jumping to it from another position, seeks without libFLAC's bisection.
//
// Pins: a stream pins a block before it pushes a run that points into it and unpins it
// once its voice has consumed the run (stream/DiskStream.h), so a block is never evicted
// under a voice. Only the blocks between a voice and the end of its runs are pinned: a
// few per stream, which the cache's minimum size covers (stream/DiskThread.h). When
// every block is pinned all the same, pin() puts the push off rather than fail it.
//
// Eviction (segmented LRU): an unpinned block waits in one of two LRU lists. A block
// only one stream has used so far is on probation; one that a second stream found
// in the cache is protected (at most 7/8 of the cache; past that the oldest protected
// block goes back on probation: dense piano bench, 8 % to 11 % fewer frames decoded
// than with half the cache at 48-96 MiB, 1 % more at 24 MiB). The victim is the oldest block on probation, else
// the oldest protected one. A dense song streams many blocks once (the tail of a
// long chord note) and a few blocks again and again (the first blocks past the
// preload of a repeated note): plain LRU let the first kind flush the second.
//
// Streams ahead: a stream tells the cache where it reads (a Cursor: the file frame it
// stands at, the last it may read), and the victim is the oldest block no stream is
// on its way to; a block behind one stream of a sample and ahead of another (a note
// repeated while it still sounds) is kept for the second. Only the 256 oldest blocks
// are looked at; when all of them lie ahead of a stream the oldest goes after all.
// (Dense piano bench, 48 MiB, no preload: 120 M frames decoded instead of 139 M with
// plain segmented LRU; looking at the 32 oldest only: 134 M. A simulation of its trace
// that knows the future, the best any order could do, decoded about a third less.)
//
// Memory: capacity blocks of kBlockBytes, mapped at construction and backed only once
// written: the resident size grows with the blocks decoded, up to the budget, and
// never past it.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/SampleData.h"
#include "rt/StreamRing.h"
#include "stream/FileCache.h"

namespace spindle::stream {

struct DiskCounters;

class BlockCache {
 public:
  // 32 KiB: 8192 frames of 16-bit stereo. Small enough that a pinned block per stream
  // costs 10 MiB at 320 streams, large enough that a FLAC frame (4096 frames from
  // most encoders) never straddles two cache blocks at the usual 4096 alignment.
  static constexpr std::size_t kBlockBytes = 32u << 10;
  static constexpr int64_t kBlockFrames = 8192;  // of 16-bit stereo; framesPerBlock() in general
  // 64 MiB: on the dense piano bench (docs/benchmarks.md, item 6) the streamed render
  // then decodes what 128 MiB of float blocks decoded.
  static constexpr std::size_t kDefaultBudget = 64u << 20;

  struct Block {
    const SampleData* sample = nullptr;
    int64_t index = -1;      // block index in the file; -1: free
    int64_t first = 0;       // the file frame of the block's frame 0
    int64_t frames = 0;      // frames held (framesPerBlock, fewer at the file's end)
    void* data = nullptr;    // kBlockBytes: channel 0, then channel 1 (stereo) after `stride` values
    int64_t stride = 0;      // values per channel: framesPerBlock
    bool pcm16 = false;      // 16-bit integers, else float
    const void* facts = nullptr;  // the sample's FileFacts (stable: a map node)
    int pins = 0;
    bool reused = false;                  // a second stream found it in the cache
    uint8_t list = 0;                     // unpinned: kProbation or kProtected
    uint32_t prev = kNone, next = kNone;  // LRU list links (unpinned blocks only)
  };
  static constexpr uint32_t kNone = ~uint32_t{0};

  // A run over file frames [fileFrame, fileFrame + n) of a block, n at most maxFrames
  // and up to the block's end (its `first` is left 0 for the caller to set).
  static rt::FrameRun runOf(const Block& block, int64_t fileFrame, int64_t maxFrames) noexcept;

  // Runs before every file read (a slow or failing disk in tests); false fails it.
  using ReadHook = std::function<bool()>;

  // budgetBytes: decoded audio held at most; at least minBlocks blocks whatever it says.
  BlockCache(std::size_t budgetBytes, int minBlocks);
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // The block holding file frame `frame` of `sample`, pinned; decoded now on a miss
  // (through a reader from `files`). nullptr when it cannot be decoded (`error` says
  // why) or, with `error` left empty, when every block is pinned (try again later).
  // `heldFd`: a descriptor of the file the pinning stream holds open (or -1); when the
  // path no longer opens (the file was deleted while playing) the reader opens that.
  const Block* pin(const SampleData* sample, int64_t frame, FileCache& files, const ReadHook& beforeRead,
                   DiskCounters& counters, std::string& error, int heldFd = -1);
  void unpin(const Block* block) noexcept;

  // Where one stream reads: file frames from `at` (its current block's first) up to
  // `last`. Registered by the stream (follow) while it is open (unfollow).
  struct Cursor {
    const SampleData* sample = nullptr;
    int64_t at = 0, last = -1;
  };
  void follow(const Cursor* cursor);
  void unfollow(const Cursor* cursor) noexcept;

  // Frames in one block of `sample` (known once the sample was pinned; else 8192).
  int64_t framesPerBlock(const SampleData* sample) const noexcept;
  int capacity() const noexcept { return static_cast<int>(blocks_.size()); }
  int blocksHeld() const noexcept { return static_cast<int>(byKey_.size()); }  // decoded and cached
  int pinnedCount() const noexcept { return pinned_; }
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

  // Per sample file: how its blocks are held, and the byte offsets of block starts.
  struct FileFacts {
    bool known = false;  // pcm16, framesPerBlock and starts are set (a reader saw the file)
    bool pcm16 = false;
    int64_t framesPerBlock = kBlockFrames;
    std::vector<uint64_t> starts;  // byte offset of block k's first FLAC frame; 0: unknown
    std::vector<const Cursor*> cursors;  // the sample's open streams
  };

  FileFacts* factsFor(const SampleData* sample, FileCache& files, std::string& error, int heldFd);
  const Block* pinNew(const SampleData* sample, FileFacts& facts, int64_t index, FileCache& files,
                      const ReadHook& beforeRead, DiskCounters& counters, std::string& error, int heldFd);
  std::unique_ptr<AudioFileReader> checkOut(const SampleData* sample, FileCache& files, std::string& error,
                                            int64_t* position, int heldFd);
  void learnStart(const SampleData* sample, AudioFileReader& reader);
  uint32_t takeVictim() noexcept;
  uint32_t oldestNotAhead() const noexcept;
  bool aheadOfStream(const Block& block) const noexcept;
  bool decode(Block& block, FileCache& files, const ReadHook& beforeRead, DiskCounters& counters,
              std::string& error, int heldFd);
  struct List {
    uint32_t oldest = kNone, newest = kNone;
    int size = 0;
  };
  static constexpr uint8_t kProbation = 0, kProtected = 1;
  bool moveTo(AudioFileReader& reader, int64_t position, Block& block, const FileFacts& facts, DiskCounters& counters);
  void unlink(uint32_t i) noexcept;
  void pushRecent(uint32_t i, uint8_t list) noexcept;

  std::byte* storage_ = nullptr;
  std::size_t storageBytes_ = 0;
  std::vector<Block> blocks_;
  std::vector<uint32_t> free_;  // never used or dropped after a failed decode
  std::unordered_map<Key, uint32_t, KeyHash> byKey_;
  List lists_[2];  // unpinned cached blocks, oldest first: probation, protected
  std::unordered_map<const SampleData*, FileFacts> facts_;
  int pinned_ = 0;  // blocks with pins > 0
};

}  // namespace spindle::stream
