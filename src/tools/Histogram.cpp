#include "tools/Histogram.h"

#include <algorithm>
#include <cstdio>

namespace spindle::tools {

Histogram::Histogram(uint64_t limitUs) : buckets_(static_cast<size_t>(std::max<uint64_t>(limitUs, 1)), 0) {}

void Histogram::add(uint64_t us) noexcept {
  if (us < buckets_.size()) {
    ++buckets_[us];
  } else {
    ++overflow_;
  }
  ++count_;
  sum_ += us;
  min_ = std::min(min_, us);
  max_ = std::max(max_, us);
}

uint64_t Histogram::percentileUs(double fraction) const {
  if (count_ == 0) return 0;
  const double wanted = fraction * static_cast<double>(count_);
  uint64_t seen = 0;
  for (size_t us = 0; us < buckets_.size(); ++us) {
    seen += buckets_[us];
    if (static_cast<double>(seen) >= wanted && seen > 0) return us;
  }
  return max_;
}

std::vector<HistogramBand> Histogram::bands() const {
  std::vector<HistogramBand> out;
  if (count_ == 0) return out;
  out.push_back({0, 1, 0});
  while (out.back().toUs <= max_) {
    const uint64_t from = out.back().toUs;
    out.push_back({from, from * 2, 0});
  }
  for (size_t us = 0; us < buckets_.size(); ++us) {
    if (buckets_[us] == 0) continue;
    auto band = std::find_if(out.begin(), out.end(), [&](const HistogramBand& b) { return us < b.toUs; });
    band->count += buckets_[us];
  }
  out.back().count += overflow_;  // values >= the limit: counted in the band of the maximum
  return out;
}

std::vector<std::string> histogramRows(const Histogram& histogram, int barWidth) {
  std::vector<std::string> rows;
  const std::vector<HistogramBand> bands = histogram.bands();
  uint64_t peak = 1;
  for (const HistogramBand& b : bands) peak = std::max(peak, b.count);
  for (const HistogramBand& b : bands) {
    const int bar = static_cast<int>((b.count * static_cast<uint64_t>(barWidth) + peak - 1) / peak);
    char head[64];
    std::snprintf(head, sizeof head, "[%llu, %llu)", static_cast<unsigned long long>(b.fromUs),
                  static_cast<unsigned long long>(b.toUs));
    char line[256];
    std::snprintf(line, sizeof line, "%-16s %9llu |%s%s|", head, static_cast<unsigned long long>(b.count),
                  std::string(static_cast<size_t>(bar), '@').c_str(),
                  std::string(static_cast<size_t>(barWidth - bar), ' ').c_str());
    rows.emplace_back(line);
  }
  return rows;
}

}  // namespace spindle::tools
