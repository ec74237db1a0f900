#pragma once
// Prints spindle-latency's measurements: summaries, histograms, the period table.
#include <ostream>
#include <string>

#include "tools/Histogram.h"
#include "tools/JackTest.h"
#include "tools/PeriodTable.h"
#include "tools/WakeupTest.h"

namespace spindle::tools {

// "cycles 2998  min 3 us  avg 6.2 us  p50 6 us  p99 12 us  max 45 us"
std::string histogramSummary(const Histogram& histogram);
void printHistogram(std::ostream& out, const Histogram& histogram);
void printWakeup(std::ostream& out, const WakeupOptions& options, const WakeupResult& result);
void printJack(std::ostream& out, const JackResult& result);
void printPeriodTable(std::ostream& out, const PeriodTable& table, bool callbackMeasured);

}  // namespace spindle::tools
