#pragma once
// Per-voice stereo filter for SFZ fil_type. Audio thread only.
//
// Every type is the bilinear transform of an analog prototype prewarped at the cutoff
// (FilterDesign.h gives the prototypes), so the digital response at the cutoff equals
// the analog one. Every two-pole section runs through a trapezoidal state-variable
// filter and every one-pole type through a trapezoidal one-pole, each type's numerator
// a mix of their outputs (FilterDesign.h): the states are integrator outputs whose
// meaning does not depend on the cutoff, so a cutoff re-set every block, even jumping
// by octaves, neither steps the output nor makes it unstable. The type names keep the
// RBJ prototypes' names. Q = 10^(resonance/20) / sqrt(2); G = fil_gain in dB. Gain at
// the cutoff in brackets:
//   lpf_1p, hpf_1p: one pole, one zero [-3 dB]; resonance unused.
//   lpf_2p, hpf_2p: RBJ low/high pass with Q [resonance - 3 dB].
//   lpf_4p, hpf_4p, lpf_6p, hpf_6p: 2 or 3 low/high-pass sections with Butterworth Qs
//     (1.3066, 0.5412 / 1.9319, 0.7071, 0.5176: maximally flat, product 1/sqrt(2)); the
//     resonance multiplies the first, most resonant section's Q by 10^(resonance/20),
//     one resonant pole pair as in a ladder filter [resonance - 3 dB, like lpf_2p].
//   bpf_2p: RBJ band pass, 0 dB peak, with Q [0 dB]; brf_2p: RBJ notch with Q [-inf].
//   bpf_4p, bpf_6p: 2 or 3 bpf_2p sections, each with Q [0 dB]; narrower, steeper.
//   bpf_1p: 2s / (s + 1)^2, a one-pole low pass times a one-pole high pass at the
//     cutoff with gain 2 (= bpf_2p at Q 1/2, and run as such): 6 dB/octave slopes [0 dB].
//   brf_1p: (s^2 + 1) / (s + 1)^2 = 1 - bpf_1p (= brf_2p at Q 1/2) [-inf].
//     The 1p band types ignore the resonance, as lpf_1p and hpf_1p do.
//   pkf_2p, peq: RBJ peaking EQ with Q, so the resonance narrows it [G].
//   lsh, hsh: RBJ shelves with Q (resonance 0: the cookbook's slope S = 1, no
//     overshoot) [G/2; G below / above the cutoff].
//   apf_1p: (1 - s) / (1 + s) [0 dB everywhere; -90 degrees at the cutoff].
//   lpf_2p_sv, hpf_2p_sv, bpf_2p_sv, brf_2p_sv: the same filters as the 2p types, which
//     run through the state-variable filter too [as the 2p type].
//   None: audio passes through unchanged.
// Cutoff is clamped to [10 Hz, 0.45 * sampleRate] (NaN -> 10 Hz), resonance to
// [0, 40] dB (NaN -> 0), gain to [-96, 24] dB (NaN -> 0), so the poles stay inside the
// unit circle for any parameters.
#include <array>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/dsp/FilterDesign.h"
#include "engine/dsp/SvfRun.h"

namespace spindle::engine::dsp {

class Filter {
 public:
  static constexpr float kMinCutoffHz = 10.0f;
  static constexpr float kMaxCutoffFraction = 0.45f;  // of the sample rate
  static constexpr float kMaxResonanceDb = 40.0f;
  static constexpr float kMinGainDb = -96.0f, kMaxGainDb = 24.0f;
  static constexpr int kMaxSections = 3;  // two-pole sections in cascade (lpf_6p, hpf_6p, bpf_6p)

  // Also resets state. Until setParams() the filter passes audio through.
  void setup(FilterType type, double sampleRate) noexcept SPINDLE_REALTIME;
  // Recomputes coefficients (a few libm calls); cheap enough to call once per block.
  // gainDb is fil_gain: only peq, pkf_2p, lsh and hsh use it.
  void setParams(float cutoffHz, float resonanceDb, float gainDb = 0.0f) noexcept SPINDLE_REALTIME;
  void process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;  // in place
  // A mono source: one channel, in place (the right state stays unused).
  void processMono(float* io, int frames) noexcept SPINDLE_REALTIME;
  void reset() noexcept SPINDLE_REALTIME;

  FilterType type() const noexcept { return type_; }

  using State = SvfState;  // per channel and section (SvfRun.h)

 private:
  void design(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME;
  // lpf/hpf_4p/6p: Butterworth sections, the first one's Q times resonanceFactor.
  void setButterworth(double w0, double resonanceFactor) noexcept SPINDLE_REALTIME;

  FilterType type_ = FilterType::None;
  double sampleRate_ = 48000.0;
  int sections_ = 0;      // state-variable sections in use; 0 for None and the 1p types
  bool onePole_ = false;  // lpf_1p, hpf_1p, apf_1p: onePoleCoeffs_ and the states' first entry
  std::array<SvfCoeffs, kMaxSections> svfs_{};
  OnePoleCoeffs onePoleCoeffs_{};
  std::array<State, kMaxSections> left_{}, right_{};
};

}  // namespace spindle::engine::dsp
