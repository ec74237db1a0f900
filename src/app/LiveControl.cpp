#include "app/LiveControl.h"

#include <algorithm>
#include <chrono>

#include "core/MidiEvent.h"
#include "io/ProcessTimer.h"
#include "rt/StreamBank.h"

namespace spindle::app {

namespace {

double framesToMs(int64_t frames, double rate) { return rate > 0.0 ? 1000.0 * static_cast<double>(frames) / rate : -1.0; }

}  // namespace

LiveControl::LiveControl(engine::Engine& engine, io::LiveProcessor& live, int midiInput, stream::PoolOptions pool,
                         control::ProblemLog& problems)
    : engine_(engine), live_(live), midiInput_(midiInput), pool_(pool), problems_(problems),
      loaderThread_(std::make_unique<stream::LoaderThread>()) {
  state_.settings.polyphony = engine.config().polyphony;
  state_.settings.quality = static_cast<int>(engine.config().quality);
  if (pool.preloadFrames >= 0) state_.settings.preloadFrames = static_cast<int>(pool.preloadFrames);
}

LiveControl::~LiveControl() { stopLoads(); }

void LiveControl::setInitialInstrument(const std::string& path) {
  std::lock_guard lock(mutex_);
  for (auto& part : state_.parts) part.instrument = path;
}

void LiveControl::pump() {
  for (;;) {
    engine::Command command;
    {
      std::lock_guard lock(mutex_);
      if (commands_.empty()) break;
      command = commands_.front();
    }
    if (!engine_.postCommand(command)) break;  // the engine's FIFO is full: next tick
    std::lock_guard lock(mutex_);
    commands_.pop_front();
  }
  pumpTunings();
  engine_.collectGarbage([this](const engine::Program* p) { dispose(p); });
}

bool LiveControl::dispose(const engine::Program* program) {
  std::lock_guard lock(mutex_);
  return owned_.erase(program) > 0;
}

bool LiveControl::queue(const engine::Command& command) {
  std::lock_guard lock(mutex_);
  if (commands_.size() >= kControlQueueCapacity) {
    refused_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  commands_.push_back(command);
  return true;
}

engine::Command LiveControl::partCommand(engine::CommandType type, int part) const {
  engine::Command command;
  command.type = type;
  command.part = static_cast<int8_t>(part);
  return command;
}

// Timestamped now on the audio clock; the audio thread plays it one period later.
bool LiveControl::sendMidi(uint8_t status, uint8_t data1, uint8_t data2) {
  const auto frame = live_.clock().frameAt(io::monotonicNs());
  if (!frame || !live_.midiInput(midiInput_).tryPush(io::TimedMidi{*frame, MidiEvent{0, status, data1, data2}})) {
    live_.countMidiDropped(1);
    return false;
  }
  return true;
}

bool LiveControl::unload(int part) {
  engine::Command command = partCommand(engine::CommandType::SetProgram, part);
  command.program = nullptr;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.parts[static_cast<std::size_t>(part)].instrument.clear();
  labels_[static_cast<std::size_t>(part)].clear();
  effects_[static_cast<std::size_t>(part)].clear();
  state_.parts[static_cast<std::size_t>(part)].effectBypass = 0;
  sharedFont_[static_cast<std::size_t>(part)] = false;
  return true;
}

bool LiveControl::setPartVolume(int part, float db) {
  engine::Command command = partCommand(engine::CommandType::SetPartVolume, part);
  command.value = db;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.parts[static_cast<std::size_t>(part)].volumeDb = db;
  return true;
}

bool LiveControl::setPartPan(int part, float pan) {
  engine::Command command = partCommand(engine::CommandType::SetPartPan, part);
  command.value = pan;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.parts[static_cast<std::size_t>(part)].pan = pan;
  return true;
}

bool LiveControl::setPartMute(int part, bool on) {
  engine::Command command = partCommand(engine::CommandType::SetPartMute, part);
  command.flag = on;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.parts[static_cast<std::size_t>(part)].mute = on;
  return true;
}

bool LiveControl::setPartSolo(int part, bool on) {
  engine::Command command = partCommand(engine::CommandType::SetPartSolo, part);
  command.flag = on;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.parts[static_cast<std::size_t>(part)].solo = on;
  return true;
}

bool LiveControl::setPolyphony(int voices) {
  engine::Command command = partCommand(engine::CommandType::SetPolyphony, 0);
  command.count = std::min(voices, maxPolyphony());
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.settings.polyphony = command.count;
  return true;
}

// Streaming off (whole samples in RAM): the value is kept for the session only.
bool LiveControl::setPreloadFrames(int frames) {
  std::lock_guard lock(mutex_);
  state_.settings.preloadFrames = frames;
  return true;
}

bool LiveControl::setQuality(int quality) {
  engine::Command command = partCommand(engine::CommandType::SetQuality, 0);
  command.count = quality;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.settings.quality = quality;
  return true;
}

bool LiveControl::panic() { return queue(partCommand(engine::CommandType::Panic, 0)); }

control::SessionState LiveControl::sessionState() {
  control::SessionState state;
  {
    std::lock_guard lock(mutex_);
    state = state_;
  }
  addSends(state);
  connections_.addTo(state);
  if (hosts_) state.hosts = hosts_->settings();
  return state;
}

control::ControlStatus LiveControl::status() {
  const io::LiveStatsSnapshot s = live_.stats();
  control::ControlStatus out;
  out.voices = s.activeVoices;
  out.peakVoices = s.peakVoices;
  out.streams = static_cast<int32_t>(s.streams);
  out.backendXruns = s.backendXruns;
  out.detectedXruns = s.detectedXruns;
  out.overBudget = s.process.overBudget;
  out.streamUnderruns = s.streamUnderruns;
  if (s.latency.notes > 0) {
    out.latencyLastMs = framesToMs(s.latency.lastFrames, s.sampleRate);
    out.latencyMinMs = framesToMs(s.latency.minFrames, s.sampleRate);
    out.latencyMaxMs = framesToMs(s.latency.maxFrames, s.sampleRate);
  }
  out.processLoad = s.process.percentile(0.99);
  out.memoryBytes = memoryBytes_.load(std::memory_order_relaxed) + baseMemory_.load(std::memory_order_relaxed);
  out.commandsDropped = refused_.load(std::memory_order_relaxed) + s.midiDropped + engine_.stats().commandsDropped;
  out.sampleRate = s.sampleRate;
  out.netRoundTripFrames = s.networkRoundTripFrames;
  out.netRoundTripPeriods = s.networkRoundTripFrames > 0 ? s.networkSlavePeriods + 1 : 0;
  const uint64_t samples = memorySamples_.load(std::memory_order_relaxed) + baseSamples_.load(std::memory_order_relaxed);
  out.bytesPerSample = samples > 0 ? out.memoryBytes / samples : 0;
  if (const rt::StreamBank* bank = engine_.config().streams) {
    const rt::StreamBank::Ahead ahead = bank->lowestAhead();
    out.aheadMinMs = ahead.open > 0 && s.sampleRate > 0.0 ? framesToMs(static_cast<uint64_t>(ahead.lowestFrames), s.sampleRate) : -1.0;
  }
  out.cacheBudgetBytes = cacheBudget_;
  if (diskCounters_) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    const stream::CacheFigures cache = cacheRate_.sample(*diskCounters_, now);
    out.cacheHitRate = cache.hitRate;
    out.decodedMBps = cache.decodedMBps;
    out.cacheBytes = cache.cacheBytes;
    out.pinnedBlocks = static_cast<int64_t>(diskCounters_->pinnedBlocks.load(std::memory_order_relaxed));
  }
  return out;
}

}  // namespace spindle::app
