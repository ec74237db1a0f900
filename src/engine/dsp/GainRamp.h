#pragma once
// GainRamp: a gain moving toward its target linearly over kSeconds whenever the target
// changes, so what it scales never steps: a voice's level into a shared effect (a
// part's CC91 or CC93, its volume: the effect's return never clicks), the master gain.
// The first target after start() is taken at once (a voice starts at its level).
// Audio thread only.
#include <algorithm>
#include <cmath>

#include "core/Realtime.h"

namespace spindle::engine {

class GainRamp {
 public:
  static constexpr double kSeconds = 0.005;

  // The voice starts: the next target is taken at once.
  void start(double sampleRate) noexcept SPINDLE_REALTIME {
    rampFrames_ = std::max(1, static_cast<int>(std::lround(kSeconds * sampleRate)));
    started_ = false;
    remaining_ = 0;
  }
  // A new target (read once per render span): the ramp starts again from where it is.
  void aim(float target) noexcept SPINDLE_REALTIME {
    if (!started_) {
      level_ = target_ = target;
      started_ = true;
      remaining_ = 0;
      return;
    }
    if (target == target_) return;
    target_ = target;
    remaining_ = rampFrames_;
    step_ = (target_ - level_) / static_cast<float>(rampFrames_);
  }
  // Nothing to add: the level is at a target of 0.
  bool silent() const noexcept SPINDLE_REALTIME { return remaining_ == 0 && target_ == 0.0f; }
  bool steady() const noexcept SPINDLE_REALTIME { return remaining_ == 0; }
  float level() const noexcept SPINDLE_REALTIME { return level_; }
  // The level for the next frame.
  float next() noexcept SPINDLE_REALTIME {
    if (remaining_ > 0 && --remaining_ > 0) level_ += step_;
    else level_ = target_;
    return level_;
  }
  // Skips `frames` frames (the effect is off: nothing is added).
  void skip(int frames) noexcept SPINDLE_REALTIME {
    remaining_ = std::max(0, remaining_ - frames);
    level_ = remaining_ > 0 ? target_ - step_ * static_cast<float>(remaining_) : target_;
  }

 private:
  float level_ = 0.0f, target_ = 0.0f, step_ = 0.0f;
  int remaining_ = 0, rampFrames_ = 240;
  bool started_ = false;
};

}  // namespace spindle::engine
