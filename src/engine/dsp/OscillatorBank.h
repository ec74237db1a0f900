#pragma once
// OscillatorBank: SFZ v2 oscillator playback of a one-cycle table (sample=*sine, or a
// file with oscillator=on): up to nine phase accumulators reading the same table, in
// one of three arrangements (the SFZ reference's oscillator_multi page; sfizz plays
// them the same way):
//
//   Unison  (oscillator_mode=0, oscillator_multi=3..9): m copies, copy i (0-based)
//           detuned by oscillator_detune times {0, -1, +1, -1/4, +1/4, -1/2, +1/2,
//           -3/4, +3/4}[i], summed into left with gain i/(m-1) and into right with
//           1 - i/(m-1). Stereo.
//   Ring    (mode 0, multi 2): carrier(f) x depth x modulator(f x detune). Mono.
//   FM      (mode 1 or 2): the carrier's frequency is f x (1 + depth x modulator(f x
//           detune)). Mono. sfizz plays mode 1 (phase modulation) as FM too.
//   Single  (mode 0, multi 1): one copy. Mono.
//
// depth is oscillator_mod_depth / 100. Each copy starts at the phase given (cycles,
// 0..1), or at its own random phase. Audio thread only; fixed-size state, no
// allocation. The table is the sample's first channel; the bank only reads it.
#include <array>
#include <cstdint>

#include "core/Realtime.h"

namespace spindle::engine::dsp {

class OscillatorBank {
 public:
  static constexpr int kMaxCopies = 9;
  enum class Arrangement : uint8_t { Single, Unison, Ring, Fm };
  // 0 nearest, 1 linear, 2 and 3 Hermite (oscillator_quality).
  enum class Interpolation : uint8_t { Nearest, Linear, Hermite };

  struct Settings {
    int multi = 1, mode = 0;
    float detuneCents = 0.0f, depth = 0.0f;  // depth: oscillator_mod_depth / 100
    Interpolation interpolation = Interpolation::Hermite;
  };

  // `phases[i]`: copy i's start phase in cycles, [0, 1).
  void start(const float* table, int64_t frames, const Settings& s,
             const std::array<float, kMaxCopies>& phases) noexcept SPINDLE_REALTIME;
  // The detune (cents) and the depth (oscillator_mod_depth / 100) from now on, as
  // their controllers move them (oscillator_detune_onccN, oscillator_mod_depth_onccN);
  // the copies' phases run on.
  void setModulation(float detuneCents, float depth) noexcept SPINDLE_REALTIME;
  // The copies the arrangement needs (each takes one start phase).
  static int copies(const Settings& s) noexcept SPINDLE_REALTIME;
  static Arrangement arrangement(const Settings& s) noexcept SPINDLE_REALTIME;
  bool stereo() const noexcept { return arrangement_ == Arrangement::Unison; }

  // Writes `frames` frames to left and right. The carrier advances `increments[i]`
  // table frames at output frame i, or `increment` each when increments is null.
  void render(float* left, float* right, int frames, const float* increments, double increment) noexcept
      SPINDLE_REALTIME;

 private:
  float read(double phase) const noexcept SPINDLE_REALTIME;
  double wrap(double phase) const noexcept SPINDLE_REALTIME;

  const float* table_ = nullptr;
  int64_t size_ = 0;
  double sizeF_ = 0.0;
  Arrangement arrangement_ = Arrangement::Single;
  Interpolation interpolation_ = Interpolation::Hermite;
  int count_ = 1;
  float depth_ = 0.0f;
  std::array<double, kMaxCopies> phase_{};  // table frames, [0, size)
  std::array<double, kMaxCopies> ratio_{};  // frequency of each copy / the carrier's
  std::array<float, kMaxCopies> gainLeft_{}, gainRight_{};
};

}  // namespace spindle::engine::dsp
