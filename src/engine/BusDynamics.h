#pragma once
// BusDynamics: the processors of the lofi, disto, comp, gate and limiter bus effects,
// for one effect of one part's bus (BusEffectState holds one and hands it the
// effect's parameters). Audio thread only; sized with its BusEffectState on the loader
// thread (it holds no buffers, only fixed state).
//
// Parameters reach it once per control step of BusEffectState (32 frames), already
// smoothed: `from` at the start of the step, `to` at its end. disto's dry and wet ramp
// between the two; every other parameter holds `to` for the step.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/dsp/Compressor.h"
#include "engine/dsp/Disto.h"
#include "engine/dsp/Gate.h"
#include "engine/dsp/Limiter.h"
#include "engine/dsp/Lofi.h"

namespace spindle::engine {

class BusDynamics {
 public:
  using Params = std::array<float, kBusParams>;

  // Clears every processor for a new start at `sampleRate`.
  void start(double sampleRate) noexcept SPINDLE_REALTIME;
  // Runs `effect` (one of the five types) in place over `frames` frames.
  void process(const BusEffect& effect, const Params& from, const Params& to, float* left, float* right,
               int frames) noexcept SPINDLE_REALTIME;

 private:
  dsp::Lofi lofi_;
  dsp::Disto disto_;
  dsp::Compressor comp_;
  dsp::Gate gate_;
  dsp::Limiter limiter_;
};

}  // namespace spindle::engine
