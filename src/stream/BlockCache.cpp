#include "stream/BlockCache.h"

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
  storage_ = static_cast<std::byte*>(pages);
  blocks_.resize(count);
  free_.reserve(count);
  byKey_.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    blocks_[i].data = storage_ + i * kBlockBytes;
    free_.push_back(static_cast<uint32_t>(count - 1 - i));
  }
}

BlockCache::~BlockCache() { ::munmap(storage_, storageBytes_); }

rt::FrameRun BlockCache::runOf(const Block& block, int64_t fileFrame, int64_t maxFrames) noexcept {
  const SampleFormat format = block.pcm16 ? SampleFormat::Int16 : SampleFormat::Float32;
  const int64_t offset = fileFrame - block.first;
  rt::FrameRun run;
  run.format = format;
  run.frames = static_cast<int32_t>(std::min(maxFrames, block.frames - offset));
  run.left = valueAt(block.data, format, offset);
  run.right = block.sample->channels > 1 ? valueAt(block.data, format, block.stride + offset) : run.left;
  return run;
}

int64_t BlockCache::framesPerBlock(const SampleData* sample) const noexcept {
  const auto it = facts_.find(sample);
  return it == facts_.end() ? kBlockFrames : it->second.framesPerBlock;
}

const BlockCache::Block* BlockCache::pin(const SampleData* sample, int64_t frame, FileCache& files,
                                         const ReadHook& beforeRead, DiskCounters& counters, std::string& error,
                                         int heldFd) {
  FileFacts* facts = factsFor(sample, files, error, heldFd);
  if (!facts) return nullptr;
  const Key key{sample, frame / facts->framesPerBlock};
  if (const auto it = byKey_.find(key); it != byKey_.end()) {
    Block& block = blocks_[it->second];
    block.reused = true;
    if (block.pins++ == 0) {
      unlink(it->second);
      ++pinned_;
    }
    counters.blockHits.fetch_add(1, std::memory_order_relaxed);
    return &block;
  }
  return pinNew(sample, *facts, key.index, files, beforeRead, counters, error, heldFd);
}

// A miss: block `index` of `sample` decoded into a victim's storage, pinned.
const BlockCache::Block* BlockCache::pinNew(const SampleData* sample, FileFacts& facts, int64_t index, FileCache& files,
                                            const ReadHook& beforeRead, DiskCounters& counters, std::string& error,
                                            int heldFd) {
  const uint32_t i = takeVictim();
  if (i == kNone) {  // every block pinned: the stream pushes this run later
    counters.cacheFull.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  counters.blockMisses.fetch_add(1, std::memory_order_relaxed);
  Block& block = blocks_[i];
  block.sample = sample;
  block.index = index;
  block.first = index * facts.framesPerBlock;
  block.stride = facts.framesPerBlock;
  block.pcm16 = facts.pcm16;
  block.facts = &facts;
  if (!decode(block, files, beforeRead, counters, error, heldFd)) {
    block.sample = nullptr;
    block.index = -1;
    free_.push_back(i);
    return nullptr;
  }
  byKey_.emplace(Key{block.sample, index}, i);
  block.pins = 1;
  ++pinned_;
  block.reused = false;
  counters.cacheBytes.store(bytesHeld(), std::memory_order_relaxed);
  return &block;
}

void BlockCache::unpin(const Block* block) noexcept {
  const auto i = static_cast<uint32_t>(block - blocks_.data());
  if (--blocks_[i].pins > 0) return;
  --pinned_;
  pushRecent(i, blocks_[i].reused ? kProtected : kProbation);
  List& guarded = lists_[kProtected];
  if (guarded.size > capacity() * 7 / 8) {
    const uint32_t demoted = guarded.oldest;
    unlink(demoted);
    pushRecent(demoted, kProbation);
  }
}

// What the blocks of `sample` hold, found out with a reader the first time.
BlockCache::FileFacts* BlockCache::factsFor(const SampleData* sample, FileCache& files, std::string& error,
                                            int heldFd) {
  FileFacts& facts = facts_[sample];
  if (facts.known) return &facts;
  int64_t position = -1;
  auto reader = checkOut(sample, files, error, &position, heldFd);
  if (!reader) return nullptr;
  facts.known = true;
  facts.pcm16 = reader->reads16();
  const int64_t channels = sample->channels > 1 ? 2 : 1;
  facts.framesPerBlock = static_cast<int64_t>(kBlockBytes) / (channels * (facts.pcm16 ? 2 : 4));
  facts.starts.assign(static_cast<std::size_t>(sample->totalFrames / facts.framesPerBlock + 1), 0);
  if (sample->streamByte > 0 && sample->framesInRam % facts.framesPerBlock == 0)
    facts.starts[static_cast<std::size_t>(sample->framesInRam / facts.framesPerBlock)] = sample->streamByte;
  files.checkIn(sample, std::move(reader), position);
  return &facts;
}

std::unique_ptr<AudioFileReader> BlockCache::checkOut(const SampleData* sample, FileCache& files, std::string& error,
                                                      int64_t* position, int heldFd) {
  const std::string file = sample->path ? sample->path : "?";
  std::string why;
  auto reader = files.checkOut(sample, why, position);
  if (!reader && heldFd >= 0) reader = AudioFileReader::open("/proc/self/fd/" + std::to_string(heldFd) + sliceSuffix(file), why);
  if (!reader) error = "cannot open sample file " + file + " for streaming: " + why;
  return reader;
}

// Remembers where the block starting at the reader's position begins in the file.
void BlockCache::learnStart(const SampleData* sample, AudioFileReader& reader) {
  int64_t frame = 0;
  uint64_t byte = 0;
  if (!reader.boundary(frame, byte)) return;
  FileFacts& facts = facts_[sample];
  const auto k = static_cast<std::size_t>(frame / facts.framesPerBlock);
  if (frame % facts.framesPerBlock == 0 && k < facts.starts.size()) facts.starts[k] = byte;
}

void BlockCache::follow(const Cursor* cursor) { facts_[cursor->sample].cursors.push_back(cursor); }

void BlockCache::unfollow(const Cursor* cursor) noexcept {
  const auto it = facts_.find(cursor->sample);
  if (it == facts_.end()) return;
  auto& list = it->second.cursors;
  list.erase(std::remove(list.begin(), list.end(), cursor), list.end());
}

bool BlockCache::aheadOfStream(const Block& block) const noexcept {
  for (const Cursor* c : static_cast<const FileFacts*>(block.facts)->cursors)
    if (c->at < block.first && block.first <= c->last) return true;
  return false;
}

// The oldest unpinned block no open stream is on its way to, among the 256 oldest
// (probation first); else the oldest.
uint32_t BlockCache::oldestNotAhead() const noexcept {
  constexpr int kLook = 256;  // each a few pointer reads
  int looked = 0;
  for (const List& list : lists_)
    for (uint32_t i = list.oldest; i != kNone && looked < kLook; i = blocks_[i].next, ++looked)
      if (!aheadOfStream(blocks_[i])) return i;
  return lists_[kProbation].oldest != kNone ? lists_[kProbation].oldest : lists_[kProtected].oldest;
}

// A never-used block, else an unpinned one (oldestNotAhead), dropped from the map.
uint32_t BlockCache::takeVictim() noexcept {
  if (!free_.empty()) {
    const uint32_t i = free_.back();
    free_.pop_back();
    return i;
  }
  const uint32_t i = oldestNotAhead();
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
  auto reader = checkOut(&sample, files, error, &position, heldFd);
  if (!reader) return false;
  const int64_t first = block.first;
  const int64_t want = std::min(block.stride, sample.totalFrames - first);
  if (position != first && !moveTo(*reader, position, block, facts_[&sample], counters)) {
    error = "cannot seek to frame " + std::to_string(first) + " of sample file " + file;
    return false;
  }
  if (beforeRead && !beforeRead()) {
    error = "cannot read sample file " + file + " at frame " + std::to_string(first) + ": Input/output error";
    return false;
  }
  learnStart(&sample, *reader);
  const bool stereo = sample.channels > 1;
  int64_t got = 0;
  if (block.pcm16) {
    auto* left = static_cast<int16_t*>(block.data);
    got = reader->readPlanar16(left, stereo ? left + block.stride : nullptr, want);
  } else {
    auto* left = static_cast<float*>(block.data);
    got = reader->readPlanar(left, stereo ? left + block.stride : nullptr, want);
  }
  counters.reads.fetch_add(1, std::memory_order_relaxed);
  counters.framesDecoded.fetch_add(static_cast<uint64_t>(std::max<int64_t>(got, 0)), std::memory_order_relaxed);
  if (got < want) {
    error = "cannot read sample file " + file + " at frame " + std::to_string(first + std::max<int64_t>(got, 0)) +
            ": " + (reader->lastError().empty() ? "the file ended early (truncated or replaced?)" : reader->lastError());
    return false;
  }
  block.frames = got;
  learnStart(&sample, *reader);
  files.checkIn(&sample, std::move(reader), first + got);
  return true;
}

// Puts the reader at the block's first frame. PCM and FLAC seek exactly (FLAC without
// a search where the block's start is known). libsndfile's Ogg Vorbis (and Opus) seek
// is not sample-exact (measured: a seek near the end of a file landed 704 frames off,
// BlockCacheTests), so there the reader only ever seeks to frame 0 and decodes forward
// to the block, discarding into the block's storage: slower, but every block equals a
// whole-file decode, so renders stay exact.
bool BlockCache::moveTo(AudioFileReader& reader, int64_t position, Block& block, const FileFacts& facts,
                        DiskCounters& counters) {
  const int64_t first = block.first;
  const bool exactSeek = reader.seeksExactly();
  if (exactSeek || position < 0 || position > first) {
    counters.seeks.fetch_add(1, std::memory_order_relaxed);
    const auto k = static_cast<std::size_t>(block.index);
    const uint64_t start = exactSeek && k < facts.starts.size() ? facts.starts[k] : 0;
    if (!(start > 0 ? reader.seekToBoundary(first, start) : reader.seek(exactSeek ? first : 0))) return false;
    position = exactSeek ? first : 0;
  }
  auto* scratch = static_cast<float*>(block.data);  // float or not: only discarded frames go here
  const int64_t half = static_cast<int64_t>(kBlockBytes / sizeof(float)) / 2;
  while (position < first) {
    const int64_t got = reader.readPlanar(scratch, scratch + half, std::min(half, first - position));
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
