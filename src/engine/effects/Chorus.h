#pragma once
// Chorus: voices reading one delay line at delays a low-frequency sine sweeps, the
// structure of FluidSynth's chorus, with its defaults (3 voices, level 2, 0.3 Hz, 8 ms).
//
//   mono in --> [ delay line ] --tap(voice k, left)--> sum * gain --> left
//                             \--tap(voice k, right)-> sum * gain --> right
//   tap delay = kMinDelay + depth * (1 + sin(2 pi speed t + phase)) / 2, read with
//   linear interpolation; voice k's sine starts at phase 2 pi k / voices, and the
//   right channel's taps run a quarter period behind the left's. The two sums are then
//   spread like Freeverb's width: left' = a left + b right, right' = a right + b left,
//   a = (w + 1) / 2, b = (1 - w) / 2, with w > 1: the sides come out mostly opposed, as
//   FluidSynth's are (white noise through its chorus at the defaults: left/right
//   correlation -0.94, per side 22.7 times the energy sent in; kWidth and kVoiceScale
//   give -0.93 and the same energy).
//
// The line is sized for the deepest sweep FluidSynth allows (256 ms), so set() changes
// any setting while it plays without allocating: the level and the depth glide to their
// new values over the next block (no click), the speed turns the sweeps' rotation, and
// a new number of voices spreads the voices' phases again from voice 0's.
//
// Construction allocates (control thread); process(), set() and clear() are real-time.
#include <array>
#include <cstddef>
#include <vector>

#include "core/Realtime.h"

namespace spindle::engine::dsp {

struct ChorusSettings {
  int voices = 3;         // 0..kMaxVoices (0: silent)
  float level = 2.0f;     // 0..10: the output's gain
  float speedHz = 0.3f;   // 0.1..5
  float depthMs = 8.0f;   // 0..256: the sweep of each tap's delay
};

class Chorus {
 public:
  static constexpr int kMaxVoices = 99;       // FluidSynth's synth.chorus.nr
  static constexpr float kMaxDepthMs = 256.0f;  // and synth.chorus.depth

  Chorus(double sampleRate, const ChorusSettings& settings);
  // Adds the chorus of `in` (mono) to left and right. Audio thread.
  void process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  void clear() noexcept SPINDLE_REALTIME;  // audio thread
  // New settings, heard from the next process(). Audio thread.
  void set(const ChorusSettings& settings) noexcept SPINDLE_REALTIME;
  // Input takes at most this many frames to reach the output.
  int memoryFrames() const noexcept SPINDLE_REALTIME {
    return static_cast<int>(minDelay_ + 2.0 * (halfDepth_ > targetHalfDepth_ ? halfDepth_ : targetHalfDepth_)) + 4;
  }

 private:
  float tap(double delayFrames) const noexcept SPINDLE_REALTIME;
  void renormalise() noexcept SPINDLE_REALTIME;
  void spreadPhases(double phase0) noexcept SPINDLE_REALTIME;

  std::vector<float> buffer_;  // power of two
  size_t mask_ = 0, at_ = 0;
  int voices_ = 3;
  double sampleRate_;
  double minDelay_ = 0.0, halfDepth_ = 0.0;  // frames
  double targetHalfDepth_ = 0.0;
  float gain_ = 0.0f, targetGain_ = 0.0f;
  double rotCos_ = 1.0, rotSin_ = 0.0;  // one frame's rotation of the sweep
  // Each voice's sweep as a phasor: left (c, s), right a quarter period behind.
  std::array<double, kMaxVoices> cos_{}, sin_{};
  static constexpr int kNormalFrames = 256;
  int sinceNormal_ = 0;  // frames since renormalise()
};

}  // namespace spindle::engine::dsp
