// The decoded-block cache on its own (the disk thread's side; DiskThreadTests and the
// stream_audio tests drive it through streams): every format decodes by block, in any
// block order (seeks), to exactly the frames of a whole-file decode; blocks are found
// again; the least recently used unpinned block goes first, a block a second stream
// used outlives blocks used once, and a pinned block is never evicted. 16-bit files
// are held as 16-bit blocks (twice the frames of float ones in the same bytes).
#include <string>
#include <vector>

#include "StreamTestSupport.h"
#include "catch.h"
#include "stream/BlockCache.h"
#include "stream/DiskStream.h"
#include "stream/SamplePool.h"

namespace block_cache_tests {

using namespace spindle;
using spindle::stream::BlockCache;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;

namespace {
constexpr int64_t kB = BlockCache::kBlockFrames;  // 16-bit stereo
constexpr int64_t kFrames = 5 * kB - 1000;  // five 16-bit stereo blocks, the last one short

struct Cache {
  explicit Cache(int count) : blocks(static_cast<std::size_t>(count) * BlockCache::kBlockBytes, 0) {}
  stream::FileCache files{4};
  BlockCache blocks;
  stream::DiskCounters counters;
  std::string error;
  int64_t framesPerBlock = kB;
  const BlockCache::Block* pin(const SampleData* s, int64_t block) {
    return blocks.pin(s, block * framesPerBlock, files, {}, counters, error);
  }
};
}  // namespace

TEST_CASE("every format decodes by block, in any order, to the whole-file decode", "[stream][cache]") {
  const auto dir = test::scratchDir("block-formats");
  struct Format {
    const char* name;
    int format;
    int64_t framesPerBlock;  // 32 KiB of stereo: 16-bit integers, else float
  };
  const Format formats[] = {{"a.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, kB},
                            {"a.aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_24, kB / 2},
                            {"a.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, kB},
                            {"a.ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS, kB / 2}};
  for (const Format& f : formats) {
    INFO(f.name);
    REQUIRE(test::writeTestCompressed(dir / f.name, f.format, 2, kFrames));
    SamplePool ram(PoolOptions{-1}), head(PoolOptions{100, 0});
    const SampleData* whole = ram.acquire((dir / f.name).string());
    const SampleData* part = head.acquire((dir / f.name).string());
    REQUIRE((whole && part && part->path));
    REQUIRE(whole->totalFrames == kFrames);
    Cache cache(8);
    const int64_t fpb = cache.framesPerBlock = f.framesPerBlock;
    int wrong = 0;
    std::vector<float> got[2];
    for (const int64_t k : {3, 0, 4, 1, 2}) {  // out of order: four seeks, then 1 -> 2 runs on
      const BlockCache::Block* b = cache.pin(part, k);
      REQUIRE(b != nullptr);
      CHECK(b->frames == std::min(fpb, kFrames - k * fpb));
      CHECK(cache.blocks.framesPerBlock(part) == fpb);
      for (auto& g : got) g.assign(static_cast<std::size_t>(b->frames), -2.0f);
      const rt::FrameRun run = BlockCache::runOf(*b, k * fpb, b->frames);
      CHECK(run.frames == b->frames);
      run.read(0, run.frames, got[0].data(), got[1].data());
      for (int64_t i = 0; i < b->frames; ++i)
        for (int c = 0; c < 2; ++c) wrong += got[c][static_cast<std::size_t>(i)] != whole->frameAt(c, k * fpb + i);
      cache.blocks.unpin(b);
    }
    CHECK(wrong == 0);
    // Vorbis seeks only to frame 0 and decodes forward (its seeks are not exact): 3
    // seeks to 0 and skips 3 blocks, 0 seeks to 0, 4 skips 3 blocks from 0's end, 1
    // seeks to 0 and skips 1, 2 runs on from 1's end.
    const bool vorbis = (f.format & SF_FORMAT_SUBMASK) == SF_FORMAT_VORBIS;
    CHECK(cache.counters.seeks.load() == (vorbis ? 3u : 4u));
    const uint64_t blocks = static_cast<uint64_t>(std::min(5 * fpb, kFrames));
    const uint64_t decoded = vorbis ? blocks + 7 * fpb : blocks;
    CHECK(cache.counters.framesDecoded.load() == decoded);
    const BlockCache::Block* again = cache.pin(part, 3);  // found, not decoded again
    CHECK(cache.counters.blockHits.load() == 1);
    CHECK(cache.counters.framesDecoded.load() == decoded);
    cache.blocks.unpin(again);
  }
}

TEST_CASE("eviction: least recently used unpinned first, reused blocks last, pinned never", "[stream][cache]") {
  const auto dir = test::scratchDir("block-evict");
  const int64_t fpb = 2 * kB;  // mono 16-bit: 16384 frames a block
  test::writeTestWav(dir / "long.wav", 1, 12 * fpb);
  SamplePool head(PoolOptions{100, 0});
  const SampleData* s = head.acquire((dir / "long.wav").string());
  REQUIRE(s != nullptr);
  Cache cache(4);
  cache.framesPerBlock = fpb;
  REQUIRE(cache.blocks.capacity() == 4);
  const BlockCache::Block* held = cache.pin(s, 0);  // stays pinned throughout
  for (int64_t k : {1, 2}) cache.blocks.unpin(cache.pin(s, k));
  cache.blocks.unpin(cache.pin(s, 1));  // a second use: block 1 is protected now
  cache.blocks.unpin(cache.pin(s, 3));  // fills the cache: 0 (pinned), 1, 2, 3
  CHECK(cache.counters.blockMisses.load() == 4);
  cache.blocks.unpin(cache.pin(s, 4));  // evicts 2: the oldest used once
  cache.blocks.unpin(cache.pin(s, 5));  // evicts 3
  const uint64_t misses = cache.counters.blockMisses.load();
  cache.blocks.unpin(cache.pin(s, 1));  // still there
  CHECK(cache.counters.blockMisses.load() == misses);
  cache.blocks.unpin(cache.pin(s, 2));  // gone: decoded again
  CHECK(cache.counters.blockMisses.load() == misses + 1);
  for (int64_t k = 6; k < 12; ++k) cache.blocks.unpin(cache.pin(s, k));  // churn
  CHECK(held->index == 0);  // the pinned block kept its frames
  float frame5 = 0.0f;
  BlockCache::runOf(*held, 5, 1).read(0, 1, &frame5, nullptr);
  CHECK(frame5 == static_cast<float>(test::frameValue(5, 0)) / 32768.0f);
  CHECK(cache.blocks.blocksHeld() == 4);
  CHECK(cache.blocks.bytesHeld() == 4 * BlockCache::kBlockBytes);
  cache.blocks.unpin(held);
}

}  // namespace block_cache_tests
