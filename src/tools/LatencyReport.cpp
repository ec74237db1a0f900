#include "tools/LatencyReport.h"

#include <cstdio>
#include <sstream>

namespace spindle::tools {

std::string histogramSummary(const Histogram& h) {
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(1);
  text << "cycles " << h.count() << "  min " << h.minUs() << " us  avg " << h.meanUs() << " us  p50 "
       << h.percentileUs(0.5) << " us  p99 " << h.percentileUs(0.99) << " us  max " << h.maxUs() << " us";
  return text.str();
}

void printHistogram(std::ostream& out, const Histogram& histogram) {
  out << "  histogram (us):\n";
  for (const std::string& row : histogramRows(histogram)) out << "    " << row << "\n";
}

void printWakeup(std::ostream& out, const WakeupOptions& options, const WakeupResult& result) {
  out << "\nWakeup latency (like cyclictest: " << (result.realtime ? "SCHED_FIFO " + std::to_string(options.priority)
                                                                  : std::string("SCHED_OTHER"))
      << " thread, clock_nanosleep TIMER_ABSTIME every " << options.intervalUs << " us, memory "
      << (result.memoryLocked ? "locked" : "not locked") << ")\n";
  if (!result.note.empty()) out << "  warning: " << result.note << "\n";
  out << "  " << histogramSummary(result.lateness) << "\n";
  if (result.missedDeadlines > 0) out << "  missed whole intervals: " << result.missedDeadlines << "\n";
  printHistogram(out, result.lateness);
}

void printJack(std::ostream& out, const JackResult& result) {
  out << "\nJACK callbacks (like latencytest: how late each process cycle starts, how long it runs)\n";
  if (!result.ran) {
    out << "  " << result.note << "\n";
    return;
  }
  char period[160];
  std::snprintf(period, sizeof period, "  server '%s': %u frames at %u Hz (%.2f ms), xruns %llu\n",
                result.serverName.c_str(), result.periodFrames, result.sampleRate,
                1000.0 * result.periodFrames / (result.sampleRate ? result.sampleRate : 1),
                static_cast<unsigned long long>(result.xruns));
  out << period;
  out << "  callback lateness: " << histogramSummary(result.lateness) << "\n";
  printHistogram(out, result.lateness);
  out << "  callback duration: " << histogramSummary(result.duration) << "\n";
  printHistogram(out, result.duration);
}

void printPeriodTable(std::ostream& out, const PeriodTable& table, bool callbackMeasured) {
  out << "\nSmallest period without an overrun at the measured worst case\n"
         "  model: a cycle that wakes W late and runs C must end before its period does: safe when W + C < period\n";
  char line[200];
  std::snprintf(line, sizeof line, "  W = %.0f us (worst wakeup), C = %.0f us (%s)\n", table.worstWakeupUs,
                table.maxCallbackUs,
                callbackMeasured ? "longest JACK callback" : "JACK not measured: add your engine's time");
  out << line << "  frames    @44.1 kHz         @48 kHz\n";
  for (const PeriodRow& r : table.rows) {
    std::snprintf(line, sizeof line, "  %6d   %7.2f ms  %-4s   %7.2f ms  %-4s\n", r.frames, r.ms44k,
                  r.ok44k ? "ok" : "XRUN", r.ms48k, r.ok48k ? "ok" : "XRUN");
    out << line;
  }
  auto smallest = [](const std::optional<int>& frames, double rate) {
    if (!frames) return std::string("none up to 2048 frames");
    char text[64];
    std::snprintf(text, sizeof text, "%d frames (%.2f ms)", *frames, 1000.0 * *frames / rate);
    return std::string(text);
  };
  out << "  smallest safe period: " << smallest(table.smallest44k, 44100.0) << " at 44.1 kHz, "
      << smallest(table.smallest48k, 48000.0) << " at 48 kHz\n";
}

}  // namespace spindle::tools
