#pragma once
// ProgramBuses: a Program's bus layout (core/BusEffects.h) and, for every part that
// may play the Program, the running state of each of its effects.
//
//   part p's voices --> main bus  (the part's buffer) -> effects -> x toOutput[0] --+
//                  \--> fx bus n  (FxBusInputs)       -> effects -> x toOutput[n] --+--> part p's buffer
//
// Built with the Program on the loader thread (every state sized then: the effects
// hold no buffers, the fx buses' inputs are the engine's), handed over with it and
// retired with it, so nothing is allocated on the audio thread. Part p's states are
// its own: two parts playing one Program never share an effect's memory. A part starts
// its states when it switches to the Program (start), then runs them in every render
// segment in which it has voices or a bus still runs (process).
//
// When a bus runs is decided frame by frame, so it never depends on where blocks end: a
// bus with effects starts at the first frame its input is not silent (0.0) and runs
// until its input and its output have stayed below kSilence for as long as its effects'
// longest memory (memoryFrames, at least mod::kControlFrames), then stops at that frame
// and holds its state; while some bus of a part runs, the part is sounding() and the
// engine runs its buses with no voices. A MIDI event ends the control step under way of
// every effect of the part's buses at its frame (process's `cut`), running or not.
#include <array>
#include <span>
#include <vector>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/effects/BusEffectState.h"
#include "engine/mod/ControllerState.h"
#include "engine/mod/CurveTable.h"

namespace spindle::engine {

// The inputs of a part's fx buses for one segment (maxBlockFrames each, the engine's).
struct FxBusInputs {
  std::array<float*, kFxBuses> left{}, right{};
  std::array<bool, kFxBuses> fed{};  // bus n + 1 was fed in this segment
};

class ProgramBuses {
 public:
  // Loader thread. curves: the instrument's numbered curves, which the effects' controls
  // read (kept here: the states point to this copy, so ProgramBuses is never copied).
  explicit ProgramBuses(BusLayout layout, const std::vector<ModCurve>& curves = {});
  ProgramBuses(const ProgramBuses&) = delete;
  ProgramBuses& operator=(const ProgramBuses&) = delete;

  const BusLayout& layout() const noexcept { return layout_; }

  // Audio thread: the part's states cleared, parameters at their targets.
  void start(int part, const mod::ControllerState* controllers, double sampleRate) noexcept SPINDLE_REALTIME;
  static constexpr float kSilence = 1e-6f;  // -120 dBFS

  // Audio thread: runs the main bus in place over left/right, scales it by its level,
  // and adds the fed fx buses (and those still running) through their effects at
  // theirs; empties the fed inputs. cut: a MIDI event was handled at the first frame.
  void process(int part, const mod::ControllerState* controllers, float* left, float* right, FxBusInputs& fx,
               int frames, bool cut = false) noexcept SPINDLE_REALTIME;
  // Audio thread, before process(): the engine's tempo (beats per minute), which the
  // delays' synced taps follow.
  void setTempo(float bpm) noexcept SPINDLE_REALTIME { tempo_ = bpm; }
  // Audio thread: the player's bypass of the part's effects, bit i for effect i
  // (core/PartEffects.h); each flag that changed crossfades (BusEffectState::bypass).
  void setBypass(int part, uint64_t mask) noexcept SPINDLE_REALTIME;
  // Audio thread: whether some bus of the part still runs.
  bool sounding(int part) const noexcept SPINDLE_REALTIME;
  // Audio thread: the longest memory of the part's buses (frames a bus runs on after
  // its input falls quiet), 0 when they have no effects.
  int memoryFrames(int part) const noexcept SPINDLE_REALTIME;

 private:
  // A bus of a part: its memory (0: no effects, it passes its input), whether it runs,
  // and for how many frames its input and output have been quiet.
  struct Run {
    int memory = 0, quiet = 0;
    bool running = false;
  };
  using Runs = std::array<Run, kBuses>;
  // The last frame of [0, frames) where left or right is above kSilence, or -1.
  static int lastLoud(const float* left, const float* right, int frames) noexcept SPINDLE_REALTIME;
  void runBus(std::span<BusEffectState> states, Run& run, int bus, const mod::ControllerState* controllers,
              float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  void runEffects(std::span<BusEffectState> states, int bus, const mod::ControllerState* controllers, float* left,
                  float* right, int frames) noexcept SPINDLE_REALTIME;
  std::span<BusEffectState> partStates(int part) noexcept SPINDLE_REALTIME;

  BusLayout layout_;
  mod::CurveTable curves_;
  std::vector<BusEffectState> states_;  // limits::kEngineParts x layout_.effects
  std::vector<Runs> runs_;              // one per part
  float tempo_ = 120.0f;
};

}  // namespace spindle::engine
