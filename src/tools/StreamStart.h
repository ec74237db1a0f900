#pragma once
// How long a stream takes to start on this machine's disk, under load, through Spindle's
// own disk path (stream::DiskThread, the block cache): what a sample's preload must
// cover, since a voice plays its preload while its stream starts.
//
// Files of 16-bit stereo noise are written to a private folder and dropped from the page
// cache. A simulated audio thread (this thread, one period of 256 frames at 48 kHz at a
// time) keeps `background` streams reading at a voice's pace, each from a cold position,
// and every `burstPeriods` periods starts `burst` more at once, each at a cold position
// of its own; a start is the time from its Open order to its first run of frames,
// polled every half millisecond. The recommendation covers the slowest start seen, one
// period for the disk thread to be woken, and as much again as a margin, at 48 kHz.
//
// Threads: the caller's (the simulated audio thread) and the disk thread it starts.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace spindle::tools {

struct StreamStartOptions {
  std::filesystem::path dir;  // a private folder is made (and removed) inside it
  int files = 64;
  double fileSeconds = 20.0;
  int background = 32;        // streams reading meanwhile
  int burst = 16;             // streams started at once
  int burstPeriods = 20;      // periods between two bursts
  double seconds = 8.0;
  uint32_t seed = 7;
};

struct StreamStartResult {
  std::string error;  // non-empty: it could not run
  bool cacheDropped = true;
  std::vector<double> startsMs;  // sorted
  double medianMs = 0, p99Ms = 0, worstMs = 0;
  int64_t preloadFrames = 0;     // recommended
};

// The quick size: 16 files of 10 s, 4 s of measuring.
StreamStartOptions quickStreamStart(StreamStartOptions options);

StreamStartResult runStreamStart(const StreamStartOptions& options,
                                 const std::function<void(const std::string&)>& progress = {});

// The preload that covers `worstMs` (see above), a multiple of 1024 frames, at least 2048.
int64_t preloadForStart(double worstMs) noexcept;

}  // namespace spindle::tools
