#pragma once
// HealthModel: what the health panel shows, derived from the stats snapshots the gui
// thread reads (at most 30 Hz) and the note-on latency records it drains.
//
// Thread: gui thread only. Plain C++ (no Qt), so tests feed it made-up snapshots.
//
//   update(input, now) ──► xrun timeline: one bucket per second, the last kSeconds,
//                          three series (backend xruns, overrun process calls,
//                          stream underruns), from counter deltas
//                     ──► process load over the last update interval (avg, peak)
//                     ──► disk MB/s from decoded frames, the least audio a stream holds ahead
//   addNoteLatency(frames) ──► latency histogram (kBinMs bins, last one open-ended)
#include <array>
#include <cstdint>
#include <deque>
#include <string>

#include "io/LiveStats.h"

namespace spindle::gui {

struct DiskSample {
  uint64_t framesDecoded = 0;  // stream::DiskCounters::framesDecoded
  int64_t lowestAheadFrames = 0;  // output frames the stream closest to running dry holds
  int openStreams = 0;
  uint64_t pinnedBlocks = 0;      // decoded blocks the streams hold pinned
  uint64_t blockHits = 0, blockMisses = 0;  // stream::DiskCounters: the decoded-block cache
  uint64_t cacheBytes = 0;                  // decoded blocks held
};

struct RealtimeStatus {
  std::string backend;        // "jack", "pipewire", "" when not running live
  int priority = 0;           // SCHED_FIFO priority of the audio thread; 0 = not real-time
  bool memoryLocked = false;
  bool audioThreadKnown = false;  // false until the first cycle ran
};

struct HealthInput {
  io::LiveStatsSnapshot live;
  DiskSample disk;
  uint64_t preloadBytes = 0, preloadSamples = 0;  // sample data in RAM, and the samples it holds
  uint64_t cacheBudgetBytes = 0;                   // the block cache's budget, pinned blocks included
  RealtimeStatus realtime;
};

enum class XrunSeries : int { Backend = 0, Overrun = 1, Underrun = 2 };
inline constexpr int kXrunSeries = 3;
using XrunBucket = std::array<uint32_t, kXrunSeries>;

class HealthModel {
 public:
  static constexpr int kSeconds = 300;  // timeline length: the last five minutes
  static constexpr int kLatencyBins = 48;
  static constexpr double kBinMs = 0.5;

  // `nowSeconds`: a monotonic time; buckets are whole seconds of it.
  void update(const HealthInput& input, double nowSeconds);
  void addNoteLatency(int64_t totalFrames);

  const HealthInput& current() const noexcept { return input_; }
  // Oldest first; the last bucket is the current second. At most kSeconds buckets.
  const std::deque<XrunBucket>& timeline() const noexcept { return timeline_; }
  uint64_t total(XrunSeries series) const noexcept { return totals_[static_cast<std::size_t>(series)]; }

  double loadAverage() const noexcept { return loadAverage_; }  // percent of the period
  double loadPeak() const noexcept { return loadPeak_; }        // percent, bin upper edge
  double loadMax() const noexcept;                              // percent, slowest cycle ever
  double diskMegabytesPerSecond() const noexcept { return diskRate_; }
  // Blocks the streams found decoded in the cache since the last update, 0..1; -1 before any.
  double cacheHitRate() const noexcept { return cacheHitRate_; }

  double ms(int64_t frames) const noexcept;
  const std::array<uint64_t, kLatencyBins>& latencyBins() const noexcept { return latencyBins_; }
  uint64_t latencyCount() const noexcept { return latencyCount_; }

  // One line saying what is off with the real-time setup and how to fix it; "" when fine.
  std::string realtimeHint() const;

 private:
  void addToTimeline(const io::LiveStatsSnapshot& s, int64_t second);
  void updateLoad(const io::ProcessHistogram& now);
  void updateDisk(const DiskSample& disk, double nowSeconds);

  HealthInput input_;
  bool haveInput_ = false;
  double lastSeconds_ = 0.0;
  std::deque<XrunBucket> timeline_;
  int64_t lastSecond_ = 0;
  std::array<uint64_t, kXrunSeries> totals_{};
  io::ProcessHistogram lastProcess_;
  double loadAverage_ = 0.0, loadPeak_ = 0.0, diskRate_ = 0.0, cacheHitRate_ = -1.0;
  std::array<uint64_t, kLatencyBins> latencyBins_{};
  uint64_t latencyCount_ = 0;
};

}  // namespace spindle::gui
