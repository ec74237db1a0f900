#pragma once
// Reverb: a feedback delay network (Jot), the structure of FluidSynth's reverb.
//
//            +--------------------------------------------------+
//            |   8 x 8 Householder matrix: y = x - (2/8) sum(x) |
//            +--^----^----^----^----^----^----^----^------------+
//   mono in -+->[ d0 ][ d1 ]... [ d7 ]  delay lines, lengths prime (55-94 ms)
//               each line: gain g_i = 10^(-3 d_i / (rate T60)) and a one-pole
//               low-pass for damping (high frequencies die sooner)
//   even lines -> left, odd lines -> right; width mixes the two; level scales both.
//
// The reverb time follows the room size as FluidSynth's does: the room size gives a
// Freeverb feedback f = 0.7 + 0.28 room, and T60 = kDecayReference / -log10(f). The
// reference is calibrated against FluidSynth 2.3 (a 20 ms noise burst, reverb at its
// defaults, T30 from the backward-integrated decay: 0.96 s at room size 0.2; room sizes
// 0, 0.5 and 0.8 then land within 11 % of FluidSynth's 0.68, 1.67 and 3.78 s). Damping
// shortens the high frequencies' T60 down to 0.45 of the lows' at 1, which gives
// FluidSynth's wet energy at damping 0.5 and 1 and its T30 within 11 %.
//
// Width follows FluidSynth's range (0..100) and its normalisation: the wet gain is
// divided by 1 + 0.2 width, so a wide reverb is no louder than a narrow one.
// set() changes the settings while it plays: the decay and damping take effect at
// once (the lines keep what they hold, so the tail changes course without a jump) and
// the output gains ramp over the next block, so a change never clicks.
//
// Construction allocates (control thread); process(), set() and clear() are real-time.
#include <array>
#include <vector>

#include "core/Realtime.h"

namespace spindle::engine::dsp {

struct ReverbSettings {
  float roomSize = 0.2f;  // 0..1
  float damping = 0.0f;   // 0..1: 0 keeps the highs as long as the lows
  float width = 0.5f;     // 0..100: 0 mono, 1 widest without opposed sides
  float level = 0.9f;     // 0..1: the wet output's gain
};

class Reverb {
 public:
  static constexpr int kLines = 8;

  Reverb(double sampleRate, const ReverbSettings& settings);
  // Adds the reverb of `in` (mono) to left and right. Audio thread.
  void process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  // Empties the delay lines (the tail stops at once). Audio thread.
  void clear() noexcept SPINDLE_REALTIME;
  // New settings, heard from the next process(). Audio thread.
  void set(const ReverbSettings& settings) noexcept SPINDLE_REALTIME;
  // Seconds for the response to fall 60 dB at low frequencies.
  float decaySeconds() const noexcept { return t60_; }
  // The longest line: input takes up to this many frames to reach the output.
  int memoryFrames() const noexcept SPINDLE_REALTIME { return static_cast<int>(lines_.back().buffer.size()); }

 private:
  struct Line {
    std::vector<float> buffer;
    int at = 0;
    float gain = 1.0f;      // per pass, from T60
    float damp = 0.0f;      // one-pole low-pass coefficient
    float state = 0.0f;
  };
  void configure(const ReverbSettings& settings) noexcept SPINDLE_REALTIME;

  double sampleRate_;
  std::array<Line, kLines> lines_;
  float t60_ = 1.0f;
  float wet1_ = 0.0f, wet2_ = 0.0f;              // same-side and cross-side output gains
  float targetWet1_ = 0.0f, targetWet2_ = 0.0f;  // where the next block ramps them to
};

}  // namespace spindle::engine::dsp
