#pragma once
// Sine LFO with delay and fade-in (amplfo, fillfo, pitchlfo). Audio thread only.
//
//   out |           delay   fade      full depth
//       |________________/\    /\/\/\/\/\/\/\/\ ...
//       |                  \/
//       0             phase 0 here, depth ramps 0 -> 1 over `fade`
//
// Output frame i (from start()) is depth * fade(i) * sin(2*pi*freq*(i - D)/rate) for
// i >= D = round(delay * rate), else 0; fade(i) = min(1, (i - D) / F), F = round(fade
// * rate) (1 when F = 0). Values are in the units of params.depth (dB or cents).
// The sine is mod::SinePhasor (Wave.h): one complex multiply per frame, no libm call.
#include <cstdint>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/mod/Wave.h"

namespace spindle::engine::mod {

class Lfo {
 public:
  void setup(const LfoParams& params, double sampleRate) noexcept SPINDLE_REALTIME;
  void start() noexcept SPINDLE_REALTIME;
  // Writes depth * fade * sin(phase); zeros while delayed and when !active().
  void process(float* out, int frames) noexcept SPINDLE_REALTIME;
  bool active() const noexcept { return freq_ > 0.0 && depth_ != 0.0; }  // freq > 0 && depth != 0
  // Control-rate changes (controller modulation): the phase and fade carry on.
  void setDepth(double depth) noexcept SPINDLE_REALTIME { depth_ = depth; }
  void setFreq(double hz, double sampleRate) noexcept SPINDLE_REALTIME;

 private:
  int runDelay(float* out, int frames) noexcept SPINDLE_REALTIME;  // returns frames written

  double freq_ = 0.0, depth_ = 0.0;
  int64_t delayFrames_ = 0, fadeFrames_ = 0;

  int64_t delayLeft_ = 0;  // frames of delay still to output
  SinePhasor phasor_;      // its sine is the next frame's
  double fade_ = 1.0, fadeStep_ = 0.0;
};

}  // namespace spindle::engine::mod
