#include "gui/HealthModel.h"

#include <algorithm>
#include <cmath>

namespace spindle::gui {

namespace {

// Counters restart from zero with a new session; a smaller value is a fresh count.
uint64_t delta(uint64_t before, uint64_t now) noexcept { return now >= before ? now - before : now; }

XrunBucket counts(const io::LiveStatsSnapshot& s) noexcept {
  // A backend xrun is seen twice when the backend reports it and the frame clock
  // jumps: the two witnesses count one event, so the series takes the larger.
  return {static_cast<uint32_t>(std::max(s.backendXruns, s.detectedXruns)),
          static_cast<uint32_t>(s.process.overBudget), static_cast<uint32_t>(s.streamUnderruns)};
}

// 16-bit stereo, the unit DiskOptions::readBytes is given in: MB/s comparable to a disk's.
constexpr double kBytesPerFrame = 4.0;

}  // namespace

void HealthModel::update(const HealthInput& input, double nowSeconds) {
  const auto second = static_cast<int64_t>(std::floor(nowSeconds));
  if (!haveInput_) {
    // What happened before the first snapshot (the start, a few seconds at most) shows
    // in the first second, so the timeline never says less than the counters.
    timeline_.push_back(counts(input.live));
    lastSecond_ = second;
    for (std::size_t i = 0; i < static_cast<std::size_t>(kXrunSeries); ++i) totals_[i] = timeline_.back()[i];
    lastProcess_ = input.live.process;
  } else {
    addToTimeline(input.live, second);
    updateLoad(input.live.process);
    updateDisk(input.disk, nowSeconds);
  }
  input_ = input;
  haveInput_ = true;
  lastSeconds_ = nowSeconds;
}

void HealthModel::addToTimeline(const io::LiveStatsSnapshot& s, int64_t second) {
  if (second - lastSecond_ > kSeconds) {
    timeline_.clear();
    timeline_.push_back({});
    lastSecond_ = second;
  }
  for (; lastSecond_ < second; ++lastSecond_) timeline_.push_back({});
  while (timeline_.size() > static_cast<std::size_t>(kSeconds)) timeline_.pop_front();
  const XrunBucket before = counts(input_.live), now = counts(s);
  for (std::size_t i = 0; i < static_cast<std::size_t>(kXrunSeries); ++i) {
    const uint64_t d = delta(before[i], now[i]);
    timeline_.back()[i] += static_cast<uint32_t>(d);
    totals_[i] += d;
  }
}

void HealthModel::updateLoad(const io::ProcessHistogram& now) {
  uint64_t cycles = 0;
  double weighted = 0.0;
  int highest = -1;
  for (std::size_t i = 0; i < now.counts.size(); ++i) {
    const uint64_t d = delta(lastProcess_.counts[i], now.counts[i]);
    if (d == 0) continue;
    cycles += d;
    weighted += static_cast<double>(d) * (static_cast<double>(i) + 0.5) * io::ProcessHistogram::kBinPercent;
    highest = static_cast<int>(i);
  }
  lastProcess_ = now;
  if (cycles == 0) return;  // no cycle since the last update: keep showing the last values
  loadAverage_ = weighted / static_cast<double>(cycles);
  loadPeak_ = static_cast<double>((highest + 1) * io::ProcessHistogram::kBinPercent);
}

void HealthModel::updateDisk(const DiskSample& disk, double nowSeconds) {
  const double seconds = nowSeconds - lastSeconds_;
  if (seconds <= 0.0) return;
  const double frames = static_cast<double>(delta(input_.disk.framesDecoded, disk.framesDecoded));
  diskRate_ = frames * kBytesPerFrame / 1e6 / seconds;
  const uint64_t hits = delta(input_.disk.blockHits, disk.blockHits);
  const uint64_t asked = hits + delta(input_.disk.blockMisses, disk.blockMisses);
  if (asked > 0) cacheHitRate_ = static_cast<double>(hits) / static_cast<double>(asked);
}

double HealthModel::loadMax() const noexcept {
  const io::ProcessHistogram& p = input_.live.process;
  return p.lastBudgetNs > 0 ? 100.0 * static_cast<double>(p.maxNs) / static_cast<double>(p.lastBudgetNs) : 0.0;
}

double HealthModel::ms(int64_t frames) const noexcept {
  const double rate = input_.live.sampleRate;
  return rate > 0.0 ? 1000.0 * static_cast<double>(frames) / rate : 0.0;
}

void HealthModel::addNoteLatency(int64_t totalFrames) {
  const double value = ms(totalFrames);
  const auto bin = static_cast<int>(std::max(0.0, value) / kBinMs);
  ++latencyBins_[static_cast<std::size_t>(std::min(bin, kLatencyBins - 1))];
  ++latencyCount_;
}

std::string HealthModel::realtimeHint() const {
  const RealtimeStatus& rt = input_.realtime;
  const io::LiveStatsSnapshot& s = input_.live;
  if (rt.backend.empty()) return "Not playing live: no sound server.";
  if (!s.connected) return "Not connected: start JACK (or PipeWire); Spindle reconnects by itself.";
  if (rt.audioThreadKnown && rt.priority == 0)
    return "The audio thread is not real-time: expect xruns. Give the audio group rtprio 95 "
           "(/etc/security/limits.d) and add yourself to it.";
  if (!rt.memoryLocked) return "Memory is not locked: page faults may cause dropouts. Raise memlock (limits.d).";
  if (s.sampleRate > 0.0 && 1000.0 * s.periodFrames / s.sampleRate > 20.0)
    return "The period is over 20 ms: notes will feel late. Try 256 frames or less.";
  if (s.freewheeling) return "The server is freewheeling: nothing is heard.";
  return "";
}

}  // namespace spindle::gui
