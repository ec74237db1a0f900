#include "tools/PeriodTable.h"

namespace spindle::tools {

PeriodTable buildPeriodTable(double worstWakeupUs, double maxCallbackUs) {
  PeriodTable table;
  table.worstWakeupUs = worstWakeupUs;
  table.maxCallbackUs = maxCallbackUs;
  const double neededMs = (worstWakeupUs + maxCallbackUs) / 1000.0;
  for (int frames = 32; frames <= 2048; frames *= 2) {
    PeriodRow row;
    row.frames = frames;
    row.ms44k = 1000.0 * frames / 44100.0;
    row.ms48k = 1000.0 * frames / 48000.0;
    row.ok44k = row.ms44k > neededMs;
    row.ok48k = row.ms48k > neededMs;
    if (row.ok44k && !table.smallest44k) table.smallest44k = frames;
    if (row.ok48k && !table.smallest48k) table.smallest48k = frames;
    table.rows.push_back(row);
  }
  return table;
}

}  // namespace spindle::tools
