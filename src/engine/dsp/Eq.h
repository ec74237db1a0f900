#pragma once
// Per-voice 3-band peaking EQ (SFZ eq1_*..eq3_*). Audio thread only.
//
// Each band is an RBJ-cookbook peaking biquad (transposed direct form II, double
// state): gain dB at `freq`, bandwidth `bw` octaves between the half-gain points; a
// band with 0 dB gain is skipped. freq is clamped to [10 Hz, 0.45 * sampleRate], bw to
// [0.001, 4] octaves, gain to [-96, 24] dB, so every band stays stable.
#include <array>

#include "core/Realtime.h"

namespace spindle::engine::dsp {

class Eq {
 public:
  static constexpr int kBands = 3;

  void setup(double sampleRate) noexcept SPINDLE_REALTIME;  // all bands off, state cleared
  // Recomputes one band's coefficients (a few libm calls); state is kept.
  void setBand(int band, float freqHz, float bwOctaves, float gainDb) noexcept SPINDLE_REALTIME;
  bool active() const noexcept { return on_[0] || on_[1] || on_[2]; }
  void process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;  // in place
  void processMono(float* io, int frames) noexcept SPINDLE_REALTIME;

 private:
  struct Coefs {
    double b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0;
  };
  struct State {
    double z1 = 0.0, z2 = 0.0;
  };
  static void run(const Coefs& c, State& s, float* io, int frames) noexcept SPINDLE_REALTIME;

  double sampleRate_ = 48000.0;
  std::array<Coefs, kBands> coefs_{};
  std::array<bool, kBands> on_{};
  std::array<State, kBands> left_{}, right_{};
};

}  // namespace spindle::engine::dsp
