#pragma once
// Convolution: the convolution bus effect kind (EffectKind.h; DecentSampler's <effect type="convolution">):
// the bus convolved with its impulse response (dsp::Convolver), mixed with the dry bus.
//
//   bus --+--> Convolver (response) --> x mix -------+
//         +----------------------------> x (1 - mix) +--> bus
//
// mix (BusParam::ConvolutionMix, 0..1) ramps over each control step as the other bus
// parameters do; mix 0 passes the bus through exactly, mix 1 leaves the convolution
// alone. No latency (dsp::Convolver: the response's first partition runs in the time
// domain). Its tail is the response's length: after the input falls silent the output
// changes for that many frames more, so the part runs its buses that long.
//
// The response is prepared for the rate the loader resampled it to (the engine's:
// formats/ImpulseResponses.h); its spectra (dsp::ConvolutionKernel) are built once
// per effect on the loader thread and shared by the 16 parts' states, each of which
// holds its own delay line. allocate() on the loader thread; the rest is real-time.
#include <array>
#include <memory>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/dsp/Convolver.h"
#include "engine/effects/EffectKind.h"
#include "engine/mod/ControlRate.h"

namespace spindle::engine {

class Convolution : public EffectKindBase {
 public:
  static constexpr int kLatencyFrames = dsp::Convolver::kLatencyFrames;
  // The most frames one process() call takes (a control step).
  static constexpr int kMaxFrames = mod::kControlFrames;

  // Loader thread: the kernel of the effect's response, or `shared`'s when another
  // part's state of the same effect built it already.
  void allocate(const BusEffect& effect, const Convolution* shared);
  void start(const BusEffect&, double) noexcept SPINDLE_REALTIME;
  void process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  // The response's length in frames (0 without one).
  int memoryFrames() const noexcept SPINDLE_REALTIME;

 private:
  dsp::Convolver convolver_;
  std::array<float, kMaxFrames> wetLeft_{}, wetRight_{};
};

}  // namespace spindle::engine
