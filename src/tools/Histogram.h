#pragma once
// Histogram: counts of latencies in 1 us buckets, filled by a real-time thread.
//
// add() is called on the measuring thread (SCHED_FIFO wakeup loop, JACK process callback):
// it never allocates or locks; everything is sized in the constructor. Read the results
// only after that thread has stopped (joined, or the JACK client deactivated).
#include <cstdint>
#include <string>
#include <vector>

namespace spindle::tools {

struct HistogramBand {
  uint64_t fromUs = 0, toUs = 0;  // [from, to)
  uint64_t count = 0;
};

class Histogram {
 public:
  explicit Histogram(uint64_t limitUs = 100000);

  // Real-time safe. Values at or above the limit go to an overflow count (max stays exact).
  void add(uint64_t us) noexcept;

  uint64_t count() const { return count_; }
  uint64_t minUs() const { return count_ ? min_ : 0; }
  uint64_t maxUs() const { return max_; }
  double meanUs() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }
  uint64_t overflow() const { return overflow_; }
  // Smallest value v such that at least `fraction` of the samples are <= v.
  uint64_t percentileUs(double fraction) const;
  // Power-of-two bands [0,1) [1,2) [2,4) [4,8) ... up to the band holding the maximum.
  std::vector<HistogramBand> bands() const;

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0, sum_ = 0, min_ = UINT64_MAX, max_ = 0, overflow_ = 0;
};

// Text rows in the style of bpftrace's hist(), as the Ubuntu kernel team showed latencies
// (2023): "[64, 128)   12 |@@@@      |".
std::vector<std::string> histogramRows(const Histogram& histogram, int barWidth = 40);

}  // namespace spindle::tools
