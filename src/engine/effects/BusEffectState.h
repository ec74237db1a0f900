#pragma once
// BusEffectState: one effect of one part's bus as it runs: its parameters as they move
// (mod::BusModulation: controllers, curves, LFOs, smoothing, control steps) and the
// state of its kind (Kinds.h). Audio thread only, after the loader thread sized it
// (PartBuses.h).
//
// process() runs the effect in place in control steps of mod::kControlFrames of its
// own frames: at a step's start the parameters take their values for the step's end,
// the kind takes new coefficients where they moved (EffectKind.h: configure) and ramps
// what must not step; a step goes on across process() calls, so where a part's blocks
// end never changes the effect's output. A MIDI event ends the step under way at its
// frame (cut()). start() jumps every parameter to its target.
//
// Any effect's bypass_onccN blends its output back toward its input, and so does the
// player's bypass (bypass()), over kBypassSeconds (BusBypass.cpp).
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/effects/Kinds.h"
#include "engine/mod/BusModulation.h"
#include "engine/mod/ControllerState.h"
#include "engine/mod/CurveTable.h"

namespace spindle::engine {

class BusEffectState {
 public:
  static constexpr int kStepFrames = mod::kControlFrames;

  // Loader thread: makes the kind its type needs and sizes its memory. `first`: the
  // same effect's state in part 0, when this one is another part's (a convolution shares
  // its kernel). curves: the Program's, which its controls read (null: every control
  // linear); they outlive the state.
  void allocate(const BusEffect& effect, const BusEffectState* first = nullptr, const mod::CurveTable* curves = nullptr);
  // Frames the effect's output may still change after its input fell silent.
  int memoryFrames(const BusEffect& effect) const noexcept SPINDLE_REALTIME;

  // Clears the kind and sets every parameter to its target now.
  void start(const BusEffect& effect, const mod::ControllerState* controllers, double sampleRate) noexcept
      SPINDLE_REALTIME;
  // The engine's tempo (beats per minute) for the next process(): the delay's synced taps.
  void setTempo(float bpm) noexcept SPINDLE_REALTIME { tempo_ = bpm; }
  // The player's bypass: the output crossfades to the input (on) or back to the effect
  // (off) over kBypassSeconds from the next frame processed.
  static constexpr double kBypassSeconds = 0.005;
  void bypass(bool on) noexcept SPINDLE_REALTIME { playerTarget_ = on ? 1.0f : 0.0f; }
  // Runs the effect in place over `frames` frames of the bus.
  void process(const BusEffect& effect, const mod::ControllerState* controllers, float* left, float* right,
               int frames) noexcept SPINDLE_REALTIME;
  // A MIDI event at the frame the effect is at: the control step under way ends.
  void cut(const BusEffect& effect) noexcept SPINDLE_REALTIME { modulation_.cut(effect); }

 private:
  // A run within one control step, blended back toward its input by the bypasses (BusBypass.cpp).
  void runBypassable(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  void run(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  void startBypass(double sampleRate) noexcept SPINDLE_REALTIME;

  mod::BusModulation modulation_;
  EffectProcessor kind_;
  float tempo_ = 120.0f;
  // The player's bypass, 0 plays the effect, 1 passes its input; moves toward its target
  // by playerStep_ a frame.
  float player_ = 0.0f, playerTarget_ = 0.0f, playerStep_ = 1.0f;
};

}  // namespace spindle::engine
