#pragma once
// StepRamp: where a run of frames lies in a control step (engine/mod/ControlRate.h), so
// a value moving across the step has the same value at each of the step's frames
// whichever runs the step was cut into (a block's end, a bus that stops):
//
//   value at frame i of the run = a + (b - a) * (done + i + 1) / length
//
// a at the step's start, b at its end (its last frame has b exactly when done + i + 1
// is length). Audio thread.
#include "core/Realtime.h"

namespace spindle::engine::dsp {

struct StepRamp {
  int done = 0;    // frames of the step run before this run
  int length = 0;  // the step's frames (0: a caller's default)

  float fraction(int i) const noexcept SPINDLE_REALTIME {
    return static_cast<float>(done + i + 1) / static_cast<float>(length);
  }
  float at(float a, float b, int i) const noexcept SPINDLE_REALTIME { return a + (b - a) * fraction(i); }
};

}  // namespace spindle::engine::dsp
