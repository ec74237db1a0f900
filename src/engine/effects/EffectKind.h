#pragma once
// What every bus effect kind is to the bus that runs it. A kind is a class with these
// members (EffectKindBase gives the ones a kind without memory or sizing leaves out);
// Kinds.h registers each kind for its BusEffectType, and BusEffectState runs it:
//
//   void allocate(const BusEffect&, const Kind* first)   loader thread: sizes its memory;
//                                                         first: part 0's state of the same
//                                                         effect, when this is another part's
//   void start(const BusEffect&, double sampleRate)       clears it for a new start
//   int memoryFrames() const                              frames its output may still change
//                                                         after its input fell silent
//   void configure(const BusEffect&, const BusParams&)    at a control step's start, when a
//                                                         parameter moved: coefficients
//   void process(const BusEffect&, const EffectStep&, float* left, float* right, int frames)
//                                                         in place, a run of one control step
//
// The parameters reach process() already modulated and smoothed (engine/mod/BusModulation.h):
// `from` at the control step's start, `to` at its end. A kind that must not step (a gain,
// a mix) ramps between them with the step's StepRamp, whatever runs the step is cut into;
// the others take `to` for the step. Everything but allocate() runs on the audio thread.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/dsp/StepRamp.h"

namespace spindle::engine {

using BusParams = std::array<float, kBusParams>;

inline float busParam(const BusParams& p, BusParam which) noexcept SPINDLE_REALTIME {
  return p[static_cast<size_t>(which)];
}

struct EffectStep {
  const BusParams& from;
  const BusParams& to;
  dsp::StepRamp ramp;
  float tempo = 120.0f;  // the engine's, beats per minute

  float at(BusParam p) const noexcept SPINDLE_REALTIME { return busParam(to, p); }
  // The parameter at frame i of this run, between its values at the step's ends.
  float ramped(BusParam p, int i) const noexcept SPINDLE_REALTIME {
    return ramp.at(busParam(from, p), busParam(to, p), i);
  }
};

struct EffectKindBase {
  void allocate(const BusEffect&, const void*) {}
  int memoryFrames() const noexcept SPINDLE_REALTIME { return 0; }
  void configure(const BusEffect&, const BusParams&) noexcept SPINDLE_REALTIME {}
};

}  // namespace spindle::engine
