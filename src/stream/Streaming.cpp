#include "stream/Streaming.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "core/Limits.h"

namespace spindle::stream {

std::string mib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

std::string kib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  return text;
}

Streaming::Streaming(StreamingOptions options, int polyphony) : options_(std::move(options)) {
  if (options_.preloadFrames < 0) return;
  const int streams = std::clamp(options_.streams > 0 ? options_.streams : streamsFor(polyphony), 1, limits::kMaxStreams);
  bank_ = std::make_unique<rt::StreamBank>(streams);
  DiskOptions disk = options_.disk;
  if (disk.pinningStreams <= 0) disk.pinningStreams = std::min(streams, voicesFor(polyphony));
  disk_ = std::make_unique<DiskThread>(*bank_, disk);
}

StreamingOptions liveStreamingOptions(int64_t preloadFrames, std::size_t cacheBytes) {
  StreamingOptions options;
  options.preloadFrames = preloadFrames;
  options.disk.readBytes = static_cast<int64_t>(BlockCache::kBlockBytes);
  if (cacheBytes > 0) options.disk.cacheBytes = cacheBytes;
  return options;
}

int voicesFor(int polyphony) noexcept {
  const int limit = std::clamp(polyphony, 1, limits::kMaxVoices);
  return limit + std::clamp(limit / 4, 8, 128);
}

int streamsFor(int polyphony) noexcept { return std::min(2 * voicesFor(polyphony), limits::kMaxStreams); }

// The disk thread goes first: it is the bank's producer.
Streaming::~Streaming() { disk_.reset(); }

PoolOptions poolOptionsFor(const StreamingOptions& options) noexcept {
  return PoolOptions{options.preloadFrames, options.preloadFrames < 0 ? 0 : options.disk.readFrames(),
                     options.memoryBudget};
}

std::size_t Streaming::cacheBytes() const noexcept {
  return disk_ ? static_cast<std::size_t>(disk_->cacheBlocks()) * BlockCache::kBlockBytes : 0;
}

std::string Streaming::budget(const SamplePool& pool, std::size_t loopTailBytes) const {
  const std::size_t preload = pool.bytesInRam();
  const std::string tails = loopTailBytes > 0 ? " + " + mib(loopTailBytes) + " loop tails (crossfades, loop_sustain exits)" : "";
  if (!bank_) {
    if (loopTailBytes == 0) return mib(preload) + " (every sample whole in RAM, no streaming)";
    return mib(preload) + " (every sample whole in RAM, no streaming)" + tails + " = " + mib(preload + loopTailBytes);
  }
  const std::size_t total = preload + slotBytes() + cacheBytes() + loopTailBytes;
  return mib(preload) + " preload (" + std::to_string(pool.streamedCount()) + " of " + std::to_string(pool.loadedCount()) +
         " samples streamed, " + kib(pool.bytesPerSample()) + " a sample) + " + std::to_string(bank_->size()) +
         " streams + " + mib(cacheBytes()) + " block cache" + tails + " = " + mib(total);
}

std::string Streaming::liveMemory(std::size_t sampleBytes, std::size_t bytesPerSample) const {
  const std::string samples = mib(sampleBytes) + " samples in RAM (" + kib(bytesPerSample) + " a sample)";
  if (!disk_) return samples + ", no streaming";
  const DiskCounters& c = disk_->counters();
  return samples + " + " + mib(cacheBytes()) + " block cache (" + std::to_string(c.pinnedBlocks.load()) +
         " blocks pinned, " + mib(c.cacheBytes.load()) + " decoded) + " + std::to_string(bank_->size()) + " streams (" +
         kib(slotBytes()) + ")";
}

std::string Streaming::report(uint64_t underruns) const {
  if (!disk_) return "off (every sample in RAM)";
  const DiskCounters& c = disk_->counters();
  const double decoded = static_cast<double>(c.framesDecoded.load()), read = static_cast<double>(c.framesConsumed.load());
  const double hits = static_cast<double>(c.blockHits.load()), misses = static_cast<double>(c.blockMisses.load());
  char text[512];
  std::snprintf(text, sizeof text,
                "%llu streams, %llu reads, %llu seeks (%.2f M frames decoded, %.2f M read by voices: %.3f decoded per frame "
                "read), block cache %.1f %% hits (%.1f MiB held), %llu failed, %llu underruns, slowest start %.1f ms",
                static_cast<unsigned long long>(c.streamsOpened.load()), static_cast<unsigned long long>(c.reads.load()),
                static_cast<unsigned long long>(c.seeks.load()), decoded / 1e6, read / 1e6, read > 0 ? decoded / read : 0.0,
                hits + misses > 0 ? 100.0 * hits / (hits + misses) : 0.0,
                static_cast<double>(c.cacheBytes.load()) / (1024.0 * 1024.0),
                static_cast<unsigned long long>(c.failures.load()), static_cast<unsigned long long>(underruns),
                static_cast<double>(c.worstFirstFillMicros.load()) / 1000.0);
  return text;
}

}  // namespace spindle::stream
