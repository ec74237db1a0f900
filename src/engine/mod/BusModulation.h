#pragma once
// BusModulation: the parameters of one bus effect of one part as they move, in control
// steps of kControlFrames frames of the effect's own (ControlRate.h). At each step's
// start every parameter's target is read:
//
//   target = value
//          + sum over controllers: step(depth * curve(cc))  (BusControls.h)
//          + sum over curves:      curve(cc)               (core/Curve.h over its points)
//   then each LFO in order:  add       target += curve(wave)
//                            multiply  target *= curve(wave)
//                            set       target  = curve(wave)
//
// (the LFOs are DecentSampler's part-wide <lfo>, their waves Wave.h's kUpSine, kUpSquare
// and kUpSaw, each silent for its delay from start()), and each parameter moves a step of
// its one-pole smoother toward it (a time constant of kSmoothSeconds, or its controls'
// longest smoothccN); it is then `from` at the step's start and `to` at its end, and the
// effect ramps between them (effects/EffectKind.h). Where a part's bus is cut into runs
// (blocks, events, a bus that stops and starts again) never moves a step: a step goes on
// across runs, and the LFOs' clock runs with the frames the effect runs. A MIDI event
// ends the step under way at its frame (cut()): each parameter stays where its ramp got
// to, and the next step starts there from the event's controller values, so a
// controller move counts from its event's frame.
//
// Audio thread, after the loader thread gave it the Program's curves.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/dsp/StepRamp.h"
#include "engine/mod/ControlRate.h"
#include "engine/mod/ControllerState.h"
#include "engine/mod/CurveTable.h"

namespace spindle::engine::mod {

class BusModulation {
 public:
  using Params = std::array<float, kBusParams>;
  static constexpr double kSmoothSeconds = 0.01;

  // Loader thread. curves: the Program's, which SFZ controls read through (null: linear).
  void setCurves(const CurveTable* curves) noexcept { curves_ = curves; }
  // Every parameter at its target, the LFOs' clock at 0, no step under way.
  void start(const BusEffect& effect, const ControllerState* controllers, double sampleRate) noexcept
      SPINDLE_REALTIME;
  // Begins a control step unless one is under way; true when it begins with parameters
  // that moved (the effect's coefficients follow them).
  bool step(const BusEffect& effect, const ControllerState* controllers) noexcept SPINDLE_REALTIME;
  int framesLeft() const noexcept { return kControlFrames - done_; }
  dsp::StepRamp ramp() const noexcept { return {done_, kControlFrames}; }
  const Params& from() const noexcept { return from_; }
  const Params& to() const noexcept { return current_; }
  // `frames` (at most framesLeft()) of the step have run; its last ends it.
  void ran(const BusEffect& effect, int frames) noexcept SPINDLE_REALTIME;
  // A MIDI event at this frame: the step under way ends here.
  void cut(const BusEffect& effect) noexcept SPINDLE_REALTIME;

  // The parameters' targets now.
  Params targets(const BusEffect& effect, const ControllerState* controllers) const noexcept SPINDLE_REALTIME;

 private:
  void advanceLfos(const BusEffect& effect, int frames) noexcept SPINDLE_REALTIME;

  Params from_{}, current_{};
  Params smoothing_{};  // each parameter's one-pole coefficient per step
  const CurveTable* curves_ = nullptr;
  std::array<double, kMaxBusLfos> phase_{};  // turns
  double seconds_ = 0.0;                      // the LFOs' clock, since start()
  double sampleRate_ = 48000.0;
  int done_ = 0;  // frames of the step under way run
  bool running_ = false;
};

}  // namespace spindle::engine::mod
