#pragma once
// The audio path, measured the way latencytest did (Benno Senoner, 1999) but through JACK:
// a client whose process callback records how late each cycle started and how long it ran.
#include <string>

#include "tools/Histogram.h"

namespace spindle::tools {

struct JackOptions {
  double seconds = 10.0;
  std::string serverName;  // empty: JACK_DEFAULT_SERVER, else "default"
  double loadPercent = 0;  // busy work per callback, as % of the period (an engine's DSP)
};

struct JackResult {
  bool ran = false;
  std::string note;        // why it was skipped, or what to know about the numbers
  std::string serverName;  // the server connected to
  uint32_t sampleRate = 0, periodFrames = 0;
  Histogram lateness;      // us from the cycle's start (JACK's estimate) to the callback's start
  Histogram duration;      // us the callback ran
  uint64_t cycles = 0, xruns = 0;
};

// Connects to a running server (never starts one), measures for options.seconds, closes.
JackResult runJackTest(const JackOptions& options);

}  // namespace spindle::tools
