#pragma once
// Per-voice stereo filter for SFZ fil_type. Audio thread only.
//
// Every type is one biquad in transposed direct form II with double-precision state,
// designed by the bilinear transform prewarped at the cutoff, so the digital response
// at the cutoff equals the analog prototype's:
//   lpf_2p, hpf_2p, bpf_2p, brf_2p: RBJ cookbook (bpf with 0 dB peak gain);
//     Q = 10^(resonance/20) / sqrt(2): resonance 0 dB gives -3 dB at the cutoff
//     for lpf/hpf, a resonance of R dB gives R - 3 dB there.
//   lpf_1p, hpf_1p: one pole, one zero (b2 = a2 = 0), -3 dB at the cutoff.
//   None: audio passes through unchanged.
// Cutoff is clamped to [10 Hz, 0.45 * sampleRate] (NaN -> 10 Hz), resonance to
// [0, 40] dB (NaN -> 0), so the poles stay inside the unit circle for any parameters.
#include "core/Realtime.h"
#include "core/Region.h"

namespace spindle::engine::dsp {

class Filter {
 public:
  static constexpr float kMinCutoffHz = 10.0f;
  static constexpr float kMaxCutoffFraction = 0.45f;  // of the sample rate
  static constexpr float kMaxResonanceDb = 40.0f;

  // Also resets state. Until setParams() the filter passes audio through.
  void setup(FilterType type, double sampleRate) noexcept SPINDLE_REALTIME;
  // Recomputes coefficients (a few libm calls); cheap enough to call once per block.
  void setParams(float cutoffHz, float resonanceDb) noexcept SPINDLE_REALTIME;
  void process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;  // in place
  // A mono source: one channel, in place (the right state stays unused).
  void processMono(float* io, int frames) noexcept SPINDLE_REALTIME;
  void reset() noexcept SPINDLE_REALTIME;

  FilterType type() const noexcept { return type_; }  // addition

 private:
  struct State {
    double z1 = 0.0, z2 = 0.0;
  };
  void processChannel(float* io, int frames, State& s) const noexcept SPINDLE_REALTIME;
  void setTwoPole(double w0, double q) noexcept SPINDLE_REALTIME;
  void setOnePole(double w0) noexcept SPINDLE_REALTIME;

  FilterType type_ = FilterType::None;
  double sampleRate_ = 48000.0;
  // y = b0*x + z1;  z1 = b1*x - a1*y + z2;  z2 = b2*x - a2*y   (a0 normalised to 1)
  double b0_ = 1.0, b1_ = 0.0, b2_ = 0.0, a1_ = 0.0, a2_ = 0.0;
  State left_, right_;
};

}  // namespace spindle::engine::dsp
