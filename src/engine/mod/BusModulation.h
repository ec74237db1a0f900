#pragma once
// BusModulation: where a bus effect's parameters move to, besides their values: the
// controllers (value + depth * cc, or a curve over the controller's 128 values) and
// the part-wide LFOs (DecentSampler's global <lfo>), for one effect of one part.
//
//   target = value
//          + sum over controllers: step(depth * curve(cc))  (engine/BusControls.h)
//          + sum over curves:      points(cc * 127)     (linear between points)
//   then each LFO in order:  add       target += curve(wave * 127)
//                            multiply  target *= curve(wave * 127)
//                            set       target  = curve(wave * 127)
//
// The LFOs' clock runs with the frames the effect runs (from the part's start of its
// buses), so they hold still while the part's bus does not run (no voices, no tail).
// Audio thread, after the loader thread built the curves.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/mod/ControllerState.h"
#include "engine/mod/CurveTable.h"

namespace spindle::engine {

class BusModulation {
 public:
  using Params = std::array<float, kBusParams>;

  void start(double sampleRate) noexcept SPINDLE_REALTIME;
  // The parameters' targets now.
  // curves: the Program's, which SFZ controls read through (engine/BusControls.h).
  Params targets(const BusEffect& effect, const mod::ControllerState* controllers,
                 const mod::CurveTable* curves = nullptr) const noexcept SPINDLE_REALTIME;
  // Moves the LFOs' clock on by `frames`.
  void advance(const BusEffect& effect, int frames) noexcept SPINDLE_REALTIME;

  // A LFO wave (BusParamLfo::wave) at a phase in turns [0, 1): 0..1.
  static float wave(int shape, double phase) noexcept SPINDLE_REALTIME;
  // A curve of kBusCurvePoints points read at x in [0, 1].
  static float curveAt(const std::vector<float>& curve, float x) noexcept SPINDLE_REALTIME;

 private:
  std::array<double, kMaxBusLfos> phase_{};  // turns
  double seconds_ = 0.0;                      // since start()
  double sampleRate_ = 48000.0;
};

}  // namespace spindle::engine
