#include "io/OfflineRenderer.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>

#include "core/Limits.h"

namespace spindle::io {

namespace {

double cpuNow() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double secondsSince(std::chrono::steady_clock::time_point start) noexcept {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

OfflineRenderer::OfflineRenderer(engine::Engine& engine, RenderOptions options)
    : engine_(engine), options_(options) {
  options_.blockFrames = std::clamp(options_.blockFrames, 1, engine_.config().maxBlockFrames);
  blockEvents_.reserve(limits::kMaxEventsPerBlock);
  left_.resize(static_cast<std::size_t>(options_.blockFrames));
  right_.resize(static_cast<std::size_t>(options_.blockFrames));
}

// Fills blockEvents_ with the events due in the block starting at `blockStart`;
// returns the block's length in frames (shorter than blockFrames only when the
// per-block event limit cut it).
int OfflineRenderer::gatherBlock(const std::vector<int64_t>& frames, const std::vector<TimedMidiEvent>& events,
                                 std::size_t& next, int64_t blockStart, int maxLength) {
  blockEvents_.clear();
  int length = std::min(options_.blockFrames, maxLength);
  const auto capacity = static_cast<std::size_t>(limits::kMaxEventsPerBlock);
  while (next < events.size() && frames[next] < blockStart + length) {
    if (blockEvents_.size() == capacity) {
      length = static_cast<int>(std::max<int64_t>(1, frames[next] - blockStart));
      break;
    }
    // Events the limit pushed out of an earlier block arrive late, at offset 0.
    const auto offset = static_cast<uint32_t>(std::max<int64_t>(0, frames[next] - blockStart));
    const TimedMidiEvent& e = events[next++];
    blockEvents_.push_back(MidiEvent{offset, e.status, e.data1, e.data2, e.parts, e.cents});
  }
  // A cut block must not keep events at or past its new end.
  while (!blockEvents_.empty() && blockEvents_.back().frame >= static_cast<uint32_t>(length)) {
    blockEvents_.pop_back();
    --next;
  }
  return length;
}

int64_t OfflineRenderer::applyTempos(std::size_t& next, int64_t frame) const {
  const double rate = engine_.config().sampleRate;
  const auto& tempos = options_.tempos;
  while (next < tempos.size() && secondsToFrames(tempos[next].seconds, rate) <= frame) {
    engine_.setSongTempo(static_cast<float>(tempos[next].bpm));
    ++next;
  }
  return next < tempos.size() ? secondsToFrames(tempos[next].seconds, rate) - frame : INT64_MAX;
}

bool OfflineRenderer::finished(std::size_t next, std::size_t eventCount, int64_t frame, int64_t endFrame,
                               int64_t capFrame, RenderStats& stats) {
  if (next < eventCount || frame < endFrame) return false;
  const engine::EngineStats now = engine_.stats();
  if (now.activeVoices == 0 && !now.effectsSounding) return true;
  if (now.activeVoices > 0) {
    voicesEnded_ = -1;
    if (frame < capFrame) return false;
  } else {
    if (voicesEnded_ < 0) voicesEnded_ = frame;
    if (frame - voicesEnded_ < secondsToFrames(options_.effectTailCapSeconds, engine_.config().sampleRate)) return false;
  }
  stats.tailCapped = true;
  return true;
}

RenderStats OfflineRenderer::render(const std::vector<TimedMidiEvent>& events, const Sink& sink) {
  const double rate = engine_.config().sampleRate;
  std::vector<int64_t> frames(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) frames[i] = std::max<int64_t>(0, secondsToFrames(events[i].seconds, rate));

  RenderStats stats;
  voicesEnded_ = -1;
  stats.lastEventFrame = frames.empty() ? 0 : frames.back();
  const int64_t endFrame = std::max(stats.lastEventFrame + 1, secondsToFrames(options_.endSeconds, rate));
  const int64_t capFrame = stats.lastEventFrame + secondsToFrames(options_.tailCapSeconds, rate);
  const auto wallStart = std::chrono::steady_clock::now();
  const double cpuStart = cpuNow();
  std::size_t next = 0, nextTempo = 0;
  while (!finished(next, events.size(), stats.frames, endFrame, capFrame, stats)) {
    const int64_t untilTempo = applyTempos(nextTempo, stats.frames);
    const int maxLength = static_cast<int>(std::min<int64_t>(untilTempo, options_.blockFrames));
    const int length = gatherBlock(frames, events, next, stats.frames, maxLength);
    if (options_.beforeBlock) options_.beforeBlock();
    const auto processStart = std::chrono::steady_clock::now();
    const auto count = static_cast<int>(blockEvents_.size());
    if (options_.live)
      engine_.process(blockEvents_.data(), count, left_.data(), right_.data(), length);
    else
      engine_.processWaiting(blockEvents_.data(), count, left_.data(), right_.data(), length);
    stats.processSeconds += secondsSince(processStart);
    stats.peakVoices = std::max(stats.peakVoices, engine_.stats().activeVoices);
    stats.frames += length;
    if (!sink(left_.data(), right_.data(), length)) {
      stats.sinkFailed = true;
      break;
    }
  }
  stats.wallSeconds = secondsSince(wallStart);
  stats.cpuSeconds = cpuNow() - cpuStart;
  const engine::EngineStats engineStats = engine_.stats();
  stats.peakVoices = std::max(stats.peakVoices, engineStats.peakVoices);
  stats.notesStarted = engineStats.notesStarted;
  stats.voicesStolen = engineStats.voicesStolen;
  return stats;
}

}  // namespace spindle::io
