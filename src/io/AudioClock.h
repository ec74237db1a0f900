#pragma once
// AudioClock: maps CLOCK_MONOTONIC time to the backend's frame clock, so the midi
// thread can timestamp each byte it reads on the audio clock.
//
// Threads: the audio thread publishes one point per cycle (the cycle's first frame and
// the monotonic time it started); any thread converts a monotonic time to frames by
// extrapolating from the latest point at the nominal sample rate. Drift between two
// points is a fraction of a frame at 48 kHz; it resets every cycle.
#include <cstdint>
#include <optional>

#include "core/Realtime.h"
#include "io/Seqlock.h"

namespace spindle::io {

struct ClockPoint {
  uint64_t frame = 0;   // backend frame time of the cycle's first frame
  int64_t ns = 0;       // CLOCK_MONOTONIC at that frame
  double rate = 0.0;    // frames per second; 0 before the first cycle
  uint32_t period = 0;  // frames in that cycle
  uint32_t padding = 0;
};

class AudioClock {
 public:
  // Audio thread.
  void publish(const ClockPoint& point) noexcept SPINDLE_REALTIME { point_.publish(point); }

  // Any thread: the frame playing at monotonic time `ns`; nullopt before the first cycle.
  std::optional<uint64_t> frameAt(int64_t ns) const noexcept {
    ClockPoint p;
    if (!point_.read(p) || p.rate <= 0.0) return std::nullopt;
    const double delta = static_cast<double>(ns - p.ns) * p.rate / 1e9;
    const double frame = static_cast<double>(p.frame) + delta;
    return frame <= 0.0 ? 0 : static_cast<uint64_t>(frame + 0.5);
  }
  std::optional<ClockPoint> latest() const noexcept {
    ClockPoint p;
    if (!point_.read(p) || p.rate <= 0.0) return std::nullopt;
    return p;
  }

 private:
  Seqlock<ClockPoint> point_;
};

}  // namespace spindle::io
