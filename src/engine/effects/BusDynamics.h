#pragma once
// BusDynamics: the processors of the lofi, disto, comp, gate and limiter bus effects,
// for one effect of one part's bus (BusEffectState holds one and hands it the
// effect's parameters). The loader thread picks the processor of the effect's type
// (prepare, when ProgramBuses sizes its states); the audio thread only clears and runs
// it. It holds no buffers, only the fixed state of that one processor (the largest,
// disto's, is about 6 KiB).
//
// Parameters reach it once per control step of BusEffectState (32 frames), already
// smoothed: `from` at the start of the step, `to` at its end. disto's dry and wet ramp
// between the two; every other parameter holds `to` for the step.
#include <array>
#include <variant>

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

  // Loader thread: makes the processor of `type` (none for the other types).
  void prepare(BusEffectType type) noexcept;
  // Clears the processor for a new start at `sampleRate`.
  void start(double sampleRate) noexcept SPINDLE_REALTIME;
  // Runs `effect` (one of the five types) in place over `frames` frames.
  void process(const BusEffect& effect, const Params& from, const Params& to, float* left, float* right,
               int frames) noexcept SPINDLE_REALTIME;

 private:
  std::variant<std::monostate, dsp::Lofi, dsp::Disto, dsp::Compressor, dsp::Gate, dsp::Limiter> processor_;
};

}  // namespace spindle::engine
