// Core, its audio side: the chunks the adapters render, the health and the part outputs.
#include "plugin/Core.h"

#include <algorithm>
#include <utility>

#include "io/ProcessTimer.h"
#include "stream/DiskThread.h"

namespace spindle::plugin {

namespace {

engine::EngineConfig engineConfig(double sampleRate, int maxBlockFrames, rt::StreamBank* streams) {
  engine::EngineConfig config;  // the live sampler's defaults: polyphony 256, Hermite, seed 1
  config.sampleRate = sampleRate;
  config.maxBlockFrames = maxBlockFrames;
  config.streams = streams;
  return config;
}

}  // namespace

Core::Core(double sampleRate, int maxBlockFrames, LogSink log)
    : log_(std::move(log)),
      sampleRate_(sampleRate),
      maxBlockFrames_(std::clamp(maxBlockFrames > 0 ? maxBlockFrames : kDefaultBlockFrames, 1, limits::kMaxBlockFrames)),
      streamingOptions_(stream::liveStreamingOptions(stream::StreamingOptions::kDefaultPreloadFrames)),
      library_(stream::poolOptionsFor(streamingOptions_)),
      streaming_(streamingOptions_, engine::EngineConfig{}.polyphony),
      engine_(engineConfig(sampleRate, maxBlockFrames_, streaming_.bank())),
      live_(engine_) {
  loadedControls_.cc.fill(-1);
  cacheBudget_ = static_cast<double>(streaming_.cacheBytes());
  library_.setOutputRate(sampleRate);  // convolution responses are resampled to the host's rate
}

Core::~Core() {
  std::lock_guard lock(controlMutex_);
  library_.collectAll(engine_);
}

void Core::beginChunk(uint32_t frames) noexcept SPINDLE_REALTIME {
  chunkFrames_ = frames;
  live_.beginCycle({frameTime_, static_cast<int>(frames), io::monotonicNs(), sampleRate_, 0.0, false});
}

void Core::addMidi(uint32_t offset, const uint8_t* bytes, std::size_t size) noexcept SPINDLE_REALTIME {
  live_.addPortEvent(offset, bytes, size);
}

// The engine's share of the last note-on's latency in the chunk just rendered: frames
// from its event to its first voice's first frame (0 when sample-accurate).
void Core::noteLatency() noexcept SPINDLE_REALTIME {
  for (const engine::NoteStart& start : engine_.noteStarts())
    if (start.voices > 0 && start.firstOffset >= 0)
      latencyMs_ = static_cast<float>(1000.0 * std::max(0, start.firstOffset - start.eventOffset) / sampleRate_);
}

void Core::underrunsFromHere() noexcept SPINDLE_REALTIME { underrunsAtLoad_ = engine_.stats().sourceUnderruns; }

Health Core::health() const noexcept SPINDLE_REALTIME {
  const engine::EngineStats stats = engine_.stats();
  Health health;
  health.voices = static_cast<float>(stats.activeVoices);
  health.underruns = static_cast<float>(stats.sourceUnderruns - underrunsAtLoad_);
  health.latencyMs = latencyMs_;
  const stream::DiskThread* disk = streaming_.disk();
  const double used = disk ? static_cast<double>(disk->counters().cacheBytes.load(std::memory_order_relaxed)) : 0.0;
  health.cacheFill = cacheBudget_ > 0.0 ? static_cast<float>(std::min(100.0, 100.0 * used / cacheBudget_)) : 0.0f;
  return health;
}

bool Core::sharedBuffer(const engine::PartOutputs& ports, const float* buffer, const float* mainLeft,
                        const float* mainRight, std::size_t part, bool rightChannel) noexcept SPINDLE_REALTIME {
  if (buffer == mainLeft || buffer == mainRight) return true;
  for (std::size_t p = 0; p < ports.size(); ++p) {
    if (p != part && (buffer == ports[p].left || buffer == ports[p].right)) return true;
    if (p == part && buffer == (rightChannel ? ports[p].left : ports[p].right)) return true;
  }
  return false;
}

const engine::PartOutputs* Core::partOutputs(const engine::PartOutputs& ports, const float* left, const float* right,
                                             uint32_t done) noexcept SPINDLE_REALTIME {
  bool any = false;
  for (std::size_t p = 0; p < ports.size(); ++p) {
    const engine::StereoOut& port = ports[p];
    const bool connected = port.left && port.right && !sharedBuffer(ports, port.left, left, right, p, false) &&
                           !sharedBuffer(ports, port.right, left, right, p, true);
    partOutputs_[p] = connected ? engine::StereoOut{port.left + done, port.right + done} : engine::StereoOut{};
    any = any || connected;
  }
  return any ? &partOutputs_ : nullptr;
}

}  // namespace spindle::plugin
