#pragma once
// Wakeup latency, measured the way cyclictest does: a SCHED_FIFO thread sleeps until
// absolute deadlines one interval apart (clock_nanosleep, TIMER_ABSTIME, CLOCK_MONOTONIC)
// and records how late it woke each time.
#include <string>

#include "tools/Histogram.h"

namespace spindle::tools {

struct WakeupOptions {
  double seconds = 10.0;
  int intervalUs = 1000;
  int priority = 80;  // SCHED_FIFO priority; falls back to SCHED_OTHER when not permitted
};

struct WakeupResult {
  Histogram lateness;        // us past each deadline
  bool realtime = false;     // ran SCHED_FIFO
  bool memoryLocked = false; // mlockall succeeded
  std::string note;          // why not SCHED_FIFO / not locked
  uint64_t missedDeadlines = 0;  // wakeups later than a whole interval (deadlines skipped)
};

// Blocks for options.seconds, measuring on a thread of its own.
WakeupResult runWakeupTest(const WakeupOptions& options);

}  // namespace spindle::tools
