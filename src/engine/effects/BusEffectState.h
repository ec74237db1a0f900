#pragma once
// BusEffectState: one effect of one part's bus as it runs: its parameters, smoothed
// toward the values its controllers give, and the state of its processor.
// Audio thread only, after the loader thread sized it (PartBuses.h).
//
// A parameter's target is its value plus, for each of its _onccN controls, depth times
// the controller (0..1) through its curve (BusControls.h), read at the start of every
// render segment, so a controller move counts from the frame of its event. The
// parameter follows its target with a one-pole smoother of kSmoothSeconds (or its
// controls' smoothccN), stepped every kStepFrames frames; between
// steps the stateless effects ramp linearly and the EQ and filter take new
// coefficients at each step. start() jumps every parameter to its target.
//
// eq and filter run through dsp::Filter. eq: its peq, lsh or hsh type with Q from eq_bw
// by the cookbook's digital bandwidth (dsp::Eq::bandwidthToQ), the shelves' Q not
// capped as the per-voice EQ caps it: sfizz's bus shelves have that overshoot (an
// hshelf of -12 dB at 4 kHz, bw 1, on white noise: -6.25 dB, centroid x0.36). filter:
// Q = 10^(filter_resonance/20), so resonance 0 is Q 1, not the per-voice filter's
// 1/sqrt(2) (sfizz's bus lpf_2p at 1 kHz, resonance 0, on white noise: -11.87 dB).
//
// apan: an LFO of apan_waveform (lfoN_wave's waves, mod::LfoBank::wave; starting at
// phase 0 on start()) at apan_freq moves each channel's gain, the right channel's wave
// apan_phase degrees ahead of the left's: g = 1 - depth/100 * wave; the output is
// dry/100 * x + wet/100 * g * x. At the default 180 degrees the sides move in opposite
// directions (a triangle at depth 100: each side between silence and +6 dB, +1.25 dB
// on average, as sfizz's apan).
//
// lofi, disto, comp, gate and limiter run in BusDynamics (BusDynamics.h), whose
// processor allocate() picks on the loader thread; convolution in BusConvolution
// (BusConvolution.h); any effect's bypass_onccN blends its output back toward its
// input, and so does the player's bypass (bypass()), over kBypassSeconds (BusBypass.cpp).
//
// DecentSampler's chorus, phaser, wave_folder and wave_shaper run in BusChorus,
// BusModPhaser and BusShaper; curves of controllers and part-wide LFOs move parameters
// through BusModulation.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/effects/BusConvolution.h"
#include "engine/effects/BusDelay.h"
#include "engine/effects/BusPhaser.h"
#include "engine/effects/BusReverb.h"
#include "engine/effects/BusDynamics.h"
#include "engine/effects/BusChorus.h"
#include "engine/effects/BusModPhaser.h"
#include "engine/mod/BusModulation.h"
#include "engine/dsp/Eq.h"
#include "engine/dsp/Filter.h"
#include "engine/mod/ControllerState.h"
#include "engine/mod/CurveTable.h"

namespace spindle::engine {

class BusEffectState {
 public:
  static constexpr int kStepFrames = 32;
  static constexpr double kSmoothSeconds = 0.01;

  // Loader thread: sizes the memory of an effect with delay lines and makes the
  // processor its type needs (BusEffectTails.cpp). `first`: the same effect's state in
  // part 0, when this one is another part's (a convolution shares its kernel). curves:
  // the Program's, which its controls read (null: every control linear); they outlive
  // the state.
  void allocate(const BusEffect& effect, const BusEffectState* first = nullptr, const mod::CurveTable* curves = nullptr);
  // Frames the effect's output may still change after its input fell silent: 0 for the
  // effects without memory, which the bus then stops running with its voices.
  int memoryFrames(const BusEffect& effect) const noexcept SPINDLE_REALTIME;

  // Clears the processor and sets every parameter to its target now.
  void start(const BusEffect& effect, const mod::ControllerState* controllers, double sampleRate) noexcept
      SPINDLE_REALTIME;
  // The engine's tempo (beats per minute) for the next process(): the delay's synced taps.
  void setTempo(float bpm) noexcept SPINDLE_REALTIME { delay_.setTempo(bpm); }
  // The player's bypass: the output crossfades to the input (on) or back to the effect
  // (off) over kBypassSeconds from the next frame processed.
  static constexpr double kBypassSeconds = 0.005;
  void bypass(bool on) noexcept SPINDLE_REALTIME { playerTarget_ = on ? 1.0f : 0.0f; }
  // Runs the effect in place over `frames` frames of the bus.
  void process(const BusEffect& effect, const mod::ControllerState* controllers, float* left, float* right,
               int frames) noexcept SPINDLE_REALTIME;

 private:
  using Params = std::array<float, kBusParams>;
  Params targets(const BusEffect& effect, const mod::ControllerState* controllers) const noexcept SPINDLE_REALTIME;
  void applyCoefficients(const BusEffect& effect) noexcept SPINDLE_REALTIME;
  void run(const BusEffect& effect, const Params& from, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  // run(), blended back toward its input by the bypass parameter (BusBypass.cpp).
  void runBypassable(const BusEffect& effect, const Params& from, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  void autoPan(const BusEffect& effect, const Params& from, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  void startTail(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME;
  void startBypass(double sampleRate) noexcept SPINDLE_REALTIME;
  void tailCoefficients(const BusEffect& effect) noexcept SPINDLE_REALTIME;

  // dsp::Filter's resonance is 20 log10(Q sqrt(2)); filter_resonance is 20 log10(Q).
  static constexpr float kResonanceOffsetDb = 3.0103f;

  Params current_{};
  Params smoothing_{};  // each parameter's one-pole coefficient per step
  const mod::CurveTable* curves_ = nullptr;
  double sampleRate_ = 48000.0;
  double phase_ = 0.0;  // apan: the left wave's phase, turns in [0, 1)
  dsp::Filter filter_;  // eq and filter
  BusDelay delay_;
  BusPhaser phaser_;
  BusReverb reverb_;
  BusDynamics dynamics_;  // lofi, disto, comp, gate, limiter
  BusConvolution convolution_;
  BusChorus chorus_;
  BusModPhaser modPhaser_;
  BusModulation modulation_;
  // The player's bypass, 0 plays the effect, 1 passes its input; moves toward its target
  // by playerStep_ a frame.
  float player_ = 0.0f, playerTarget_ = 0.0f, playerStep_ = 1.0f;
};

}  // namespace spindle::engine
