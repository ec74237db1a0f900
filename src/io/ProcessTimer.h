#pragma once
// ProcessTimer: how long each process cycle took against its budget (the period's
// duration), as a histogram. Cheap enough to stay on always: two vDSO clock reads
// and one increment per cycle.
//
// Thread: the audio thread owns a ProcessTimer; it copies the histogram into the
// stats snapshot (LiveStats) that other threads read.
//
//   bin i (0 <= i < kBins-1): [i*kBinPercent, (i+1)*kBinPercent) % of the budget
//   bin kBins-1:              >= (kBins-1)*kBinPercent %  (far overruns)
#include <time.h>

#include <array>
#include <cstdint>

#include "core/Realtime.h"

namespace spindle::io {

struct ProcessHistogram {
  static constexpr int kBins = 41;
  static constexpr int kBinPercent = 5;
  std::array<uint64_t, kBins> counts{};
  uint64_t cycles = 0;
  uint64_t overBudget = 0;  // cycles that took longer than their budget
  uint64_t maxNs = 0;
  uint64_t lastBudgetNs = 0;

  // The smallest load (percent of the budget) that `fraction` of the cycles stayed
  // under, at bin resolution (upper edge of the bin); 0 when empty. Any thread.
  double percentile(double fraction) const noexcept;
  void add(uint64_t ns, uint64_t budgetNs) noexcept SPINDLE_REALTIME;
};

// clock_gettime(CLOCK_MONOTONIC) is a vDSO read, real-time safe though not annotated.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
inline int64_t monotonicNs() noexcept SPINDLE_REALTIME {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

class ProcessTimer {
 public:
  void start() noexcept SPINDLE_REALTIME { startNs_ = monotonicNs(); }
  // Ends the cycle started by start(); `budgetNs` is frames / rate.
  void stop(uint64_t budgetNs) noexcept SPINDLE_REALTIME {
    histogram_.add(static_cast<uint64_t>(monotonicNs() - startNs_), budgetNs);
  }
  const ProcessHistogram& histogram() const noexcept { return histogram_; }
  void reset() noexcept { histogram_ = {}; }

 private:
  int64_t startNs_ = 0;
  ProcessHistogram histogram_;
};

// ---- implementation ---------------------------------------------------------

inline void ProcessHistogram::add(uint64_t ns, uint64_t budgetNs) noexcept SPINDLE_REALTIME {
  const uint64_t budget = budgetNs > 0 ? budgetNs : 1;
  const uint64_t percent = ns * 100 / budget;
  const uint64_t bin = percent / kBinPercent;
  ++counts[bin < kBins ? bin : kBins - 1];
  ++cycles;
  if (ns > budget) ++overBudget;
  if (ns > maxNs) maxNs = ns;
  lastBudgetNs = budget;
}

inline double ProcessHistogram::percentile(double fraction) const noexcept {
  if (cycles == 0) return 0.0;
  const auto wanted = static_cast<uint64_t>(fraction * static_cast<double>(cycles) + 0.999999);
  uint64_t seen = 0;
  for (int i = 0; i < kBins; ++i) {
    seen += counts[static_cast<std::size_t>(i)];
    if (seen >= wanted) return static_cast<double>((i + 1) * kBinPercent);
  }
  return static_cast<double>(kBins * kBinPercent);
}

}  // namespace spindle::io
