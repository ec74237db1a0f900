#include "stream/Streaming.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "core/Limits.h"

namespace spindle::stream {

namespace {
std::string mib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}
}  // namespace

Streaming::Streaming(StreamingOptions options, int polyphony, int maxBlockFrames) : options_(std::move(options)) {
  if (options_.preloadFrames < 0) return;
  const int streams = std::clamp(options_.streams > 0 ? options_.streams : polyphony, 1, limits::kMaxStreams);
  bank_ = std::make_unique<rt::StreamBank>(streams, ringFramesFor(options_.disk, maxBlockFrames),
                                           lowWaterFrames(maxBlockFrames));
  disk_ = std::make_unique<DiskThread>(*bank_, options_.disk);
}

// The disk thread goes first: it is the bank's producer.
Streaming::~Streaming() { disk_.reset(); }

PoolOptions poolOptionsFor(const StreamingOptions& options) noexcept {
  return PoolOptions{options.preloadFrames, options.preloadFrames < 0 ? 0 : options.disk.readFrames(),
                     options.memoryBudget};
}

void Streaming::setFreewheel(bool on) noexcept {
  if (bank_) bank_->setFreewheel(on);
}

void Streaming::waitForDisk() noexcept {
  if (bank_) bank_->keepPace();
}

std::string Streaming::budget(const SamplePool& pool) const {
  const std::size_t preload = pool.bytesInRam();
  if (!bank_) return mib(preload) + " (every sample whole in RAM, no streaming)";
  const std::size_t perRing = ringBytes() / static_cast<std::size_t>(bank_->size());
  return mib(preload) + " preload (" + std::to_string(pool.streamedCount()) + " of " +
         std::to_string(pool.loadedCount()) + " samples streamed) + " + std::to_string(bank_->size()) +
         " streams x " + mib(perRing) + " = " + mib(preload + ringBytes());
}

}  // namespace spindle::stream
