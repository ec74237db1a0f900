#pragma once
// DelayGlide: a delay tap's time in frames as it follows its target, so a new time (a
// tempo change under a synced tap, a controller moving delay_time) never jumps the read
// position: the tap reads between frames (linear interpolation, Delay.h) and its delay
// glides toward the target, exponentially with kSeconds' time constant but never faster
// than kMaxRate frames per frame. The echo's speed so stays within 1 +- kMaxRate: while
// it glides its pitch bends by at most that much and a frame-to-frame step of the echo
// is at most (1 + kMaxRate) times the input's. A delay from 0.5 s to 0.667 s (120 to
// 90 BPM for one beat) glides in about 0.8 s.
//
// The first target after start() (and after the tap fell silent) is taken at once.
// Audio thread only.
#include <algorithm>
#include <cmath>

#include "core/Realtime.h"

namespace spindle::engine {

class DelayGlide {
 public:
  static constexpr double kMaxRate = 0.25;
  static constexpr double kSeconds = 0.05;

  void start(double sampleRate) noexcept SPINDLE_REALTIME {
    coefficient_ = 1.0 - std::exp(-1.0 / (kSeconds * sampleRate));
    primed_ = false;
  }
  void silence() noexcept SPINDLE_REALTIME { primed_ = false; }
  // The delay, in frames, for the next frame.
  double next(double target) noexcept SPINDLE_REALTIME {
    const double gap = target - frames_;
    if (!primed_ || std::fabs(gap) < 1e-6) {
      primed_ = true;
      return frames_ = target;
    }
    frames_ += std::clamp(gap * coefficient_, -kMaxRate, kMaxRate);
    return frames_;
  }

 private:
  double frames_ = 0.0;
  double coefficient_ = 1.0;
  bool primed_ = false;
};

}  // namespace spindle::engine
