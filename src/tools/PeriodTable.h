#pragma once
// Which JACK/PipeWire period would have survived the measured worst case.
//
// Model: a cycle starts when the audio thread wakes, W after the period began, and runs
// for C; with the usual two periods of buffering its output is due when the period ends:
//
//   period begins     thread wakes            output due
//   |---------- W ---------|======= C =======|.....|
//   |<------------------- one period ------------->|
//
// so a period is safe when W + C < period. W is the worst wakeup lateness measured (the
// SCHED_FIFO thread, or JACK's own callback lateness, whichever is larger); C is the longest
// measured JACK callback (0 when JACK was not measured, so add your engine's own time).
#include <optional>
#include <vector>

namespace spindle::tools {

struct PeriodRow {
  int frames = 0;
  double ms44k = 0, ms48k = 0;
  bool ok44k = false, ok48k = false;
};

struct PeriodTable {
  double worstWakeupUs = 0, maxCallbackUs = 0;
  std::vector<PeriodRow> rows;  // 32, 64, ... 2048 frames
  std::optional<int> smallest44k, smallest48k;  // frames
};

PeriodTable buildPeriodTable(double worstWakeupUs, double maxCallbackUs);

}  // namespace spindle::tools
