#include "stream/BlockCache.h"

#include <sndfile.h>

#include <algorithm>
#include <new>
#include <utility>

#include "stream/DiskStream.h"
#include "stream/SampleSlice.h"

namespace spindle::stream {

BlockCache::BlockCache(std::size_t budgetBytes, int minBlocks) {
  const auto count = std::max<std::size_t>(budgetBytes / kBlockBytes, static_cast<std::size_t>(std::max(minBlocks, 2)));
  storageBytes_ = count * kBlockBytes;
  void* pages = ::mmap(nullptr, storageBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pages == MAP_FAILED) throw std::bad_alloc();
  storage_ = static_cast<float*>(pages);
  blocks_.resize(count);
  free_.reserve(count);
  byKey_.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    blocks_[i].channel[0] = storage_ + i * 2 * kBlockFrames;
    blocks_[i].channel[1] = blocks_[i].channel[0] + kBlockFrames;
    free_.push_back(static_cast<uint32_t>(count - 1 - i));
  }
}

BlockCache::~BlockCache() { ::munmap(storage_, storageBytes_); }

const BlockCache::Block* BlockCache::pin(const SampleData* sample, int64_t frame, FileCache& files,
                                         const ReadHook& beforeRead, DiskCounters& counters, std::string& error,
                                         int heldFd) {
  const Key key{sample, frame / kBlockFrames};
  if (const auto it = byKey_.find(key); it != byKey_.end()) {
    Block& block = blocks_[it->second];
    block.reused = true;
    if (block.pins++ == 0) unlink(it->second);
    counters.blockHits.fetch_add(1, std::memory_order_relaxed);
    return &block;
  }
  counters.blockMisses.fetch_add(1, std::memory_order_relaxed);
  const uint32_t i = takeVictim();
  if (i == kNone) {  // every block pinned: cannot happen with capacity >= streams + 2
    error = "the decoded-block cache is full";
    return nullptr;
  }
  Block& block = blocks_[i];
  block.sample = sample;
  block.index = key.index;
  if (!decode(block, files, beforeRead, counters, error, heldFd)) {
    block.sample = nullptr;
    block.index = -1;
    free_.push_back(i);
    return nullptr;
  }
  byKey_.emplace(key, i);
  block.pins = 1;
  block.reused = false;
  counters.cacheBytes.store(bytesHeld(), std::memory_order_relaxed);
  return &block;
}

void BlockCache::unpin(const Block* block) noexcept {
  const auto i = static_cast<uint32_t>(block - blocks_.data());
  if (--blocks_[i].pins > 0) return;
  pushRecent(i, blocks_[i].reused ? kProtected : kProbation);
  List& guarded = lists_[kProtected];
  if (guarded.size > capacity() / 2) {
    const uint32_t demoted = guarded.oldest;
    unlink(demoted);
    pushRecent(demoted, kProbation);
  }
}

// A never-used block, else the least recently used unpinned one (dropped from the map).
uint32_t BlockCache::takeVictim() noexcept {
  if (!free_.empty()) {
    const uint32_t i = free_.back();
    free_.pop_back();
    return i;
  }
  const uint32_t i = lists_[kProbation].oldest != kNone ? lists_[kProbation].oldest : lists_[kProtected].oldest;
  if (i == kNone) return kNone;
  unlink(i);
  byKey_.erase(Key{blocks_[i].sample, blocks_[i].index});
  return i;
}

// Decodes the block's frames with a reader from `files`; the reader goes back with
// its position, so the next block of the same file decodes without a seek. A reader
// that failed is closed, not kept.
bool BlockCache::decode(Block& block, FileCache& files, const ReadHook& beforeRead, DiskCounters& counters,
                        std::string& error, int heldFd) {
  const SampleData& sample = *block.sample;
  const std::string file = sample.path ? sample.path : "?";
  int64_t position = -1;
  std::string why;
  auto reader = files.checkOut(&sample, why, &position);
  if (!reader && heldFd >= 0) reader = AudioFileReader::open("/proc/self/fd/" + std::to_string(heldFd) + sliceSuffix(file), why);
  if (!reader) {
    error = "cannot open sample file " + file + " for streaming: " + why;
    return false;
  }
  const int64_t first = block.index * kBlockFrames;
  const int64_t want = std::min(kBlockFrames, sample.totalFrames - first);
  if (position != first && !moveTo(*reader, position, first, block, counters)) {
    error = "cannot seek to frame " + std::to_string(first) + " of sample file " + file;
    return false;
  }
  if (beforeRead && !beforeRead()) {
    error = "cannot read sample file " + file + " at frame " + std::to_string(first) + ": Input/output error";
    return false;
  }
  const int64_t got = reader->readPlanar(block.channel[0], sample.channels > 1 ? block.channel[1] : nullptr, want);
  counters.reads.fetch_add(1, std::memory_order_relaxed);
  counters.framesDecoded.fetch_add(static_cast<uint64_t>(std::max<int64_t>(got, 0)), std::memory_order_relaxed);
  if (got < want) {
    error = "cannot read sample file " + file + " at frame " + std::to_string(first + std::max<int64_t>(got, 0)) +
            ": " + (reader->lastError().empty() ? "the file ended early (truncated or replaced?)" : reader->lastError());
    return false;
  }
  block.frames = got;
  if (sample.channels < 2) block.channel[1] = block.channel[0];
  else block.channel[1] = block.channel[0] + kBlockFrames;
  files.checkIn(&sample, std::move(reader), first + got);
  return true;
}

// Puts the reader at file frame `first`. PCM and FLAC seek exactly. libsndfile's Ogg
// Vorbis (and Opus) seek is not sample-exact (measured: a seek near the end of a
// file landed 704 frames off, BlockCacheTests), so there the reader only ever seeks
// to frame 0 and decodes forward to `first`, discarding into the block's storage:
// slower, but every block equals a whole-file decode, so renders stay exact.
bool BlockCache::moveTo(AudioFileReader& reader, int64_t position, int64_t first, Block& scratch,
                        DiskCounters& counters) {
  const int sub = reader.info().format & SF_FORMAT_SUBMASK;
  const bool exactSeek = sub != SF_FORMAT_VORBIS && sub != SF_FORMAT_OPUS;
  if (exactSeek || position < 0 || position > first) {
    counters.seeks.fetch_add(1, std::memory_order_relaxed);
    if (!reader.seek(exactSeek ? first : 0)) return false;
    position = exactSeek ? first : 0;
  }
  while (position < first) {
    const int64_t got = reader.readPlanar(scratch.channel[0], scratch.channel[0] + kBlockFrames,
                                          std::min(kBlockFrames, first - position));
    if (got <= 0) return false;
    counters.framesDecoded.fetch_add(static_cast<uint64_t>(got), std::memory_order_relaxed);
    position += got;
  }
  return true;
}

void BlockCache::unlink(uint32_t i) noexcept {
  Block& b = blocks_[i];
  List& list = lists_[b.list];
  (b.prev == kNone ? list.oldest : blocks_[b.prev].next) = b.next;
  (b.next == kNone ? list.newest : blocks_[b.next].prev) = b.prev;
  b.prev = b.next = kNone;
  --list.size;
}

void BlockCache::pushRecent(uint32_t i, uint8_t which) noexcept {
  Block& b = blocks_[i];
  List& list = lists_[which];
  b.list = which;
  b.prev = list.newest;
  b.next = kNone;
  (list.newest == kNone ? list.oldest : blocks_[list.newest].next) = i;
  list.newest = i;
  ++list.size;
}

}  // namespace spindle::stream
