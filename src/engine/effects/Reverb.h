#pragma once
// Reverb: Spindle's one reverb, a feedback delay network (Jot) with the structure of
// FluidSynth's reverb, run as the shared reverb SoundFont regions send to (CC91,
// effects/Effects.h) and as the SFZ and DecentSampler bus effect `reverb` / `fverb`.
//
//   in -> [predelay] -> tone low-pass -> +--------------------------------------------+
//                                         | 8 x 8 Householder matrix: y = x - (2/8) sum |
//                                         +--^----^----^----^----^----^----^----^------+
//                                   the lines [ d0 ][ d1 ]... [ d7 ], lengths primes
//                                   (55..102 ms at their longest), each with its gain
//                                   g_i (its T60) and a one-pole low-pass (damping)
//   even lines -> left, odd lines -> right (a mono input comes out wide)
//
// Two laws set it, each on its own settings:
//
// The send (ReverbSettings, FluidSynth's names and ranges; no predelay, no tone): the
// lines at their longest. The room size gives a Freeverb feedback f = 0.7 + 0.28 room
// and T60 = kDecayReference / -log10(f), calibrated against FluidSynth 2.3 (a 20 ms
// noise burst, reverb at its defaults, T30 from the backward-integrated decay: 0.96 s at
// room size 0.2; room sizes 0, 0.5 and 0.8 land within 11 % of FluidSynth's 0.68, 1.67
// and 3.78 s). Damping shortens the highs' T60 down to 0.45 of the lows' at 1 (Jot's
// absorbent filter), which gives FluidSynth's wet energy at damping 0.5 and 1 and its
// T30 within 11 %. Width (0..100) mixes the sides as FluidSynth does and divides the wet
// gain by 1 + 0.2 width. set() changes the settings while it plays: the decay and
// damping at once (the lines keep what they hold), the output gains over the next
// process() call, so a change never clicks.
//
// The bus (BusParams, sfizz's fverb where it defines them): reverb_type picks a decay
// range (its decay at size 100, half of it at size 0: large_hall 90 %, large_room 65,
// mid_hall 75, mid_room 50, small_hall 50, small_room 5; chamber as large_hall) and
// reverb_size moves within it; the decay % gives T60 = 1.6 s * 9^((decay - 45) / 45)
// (a large hall: 1.6 s at size 0, 4.8 s at 50, 14.4 s at 100), and the size stretches
// the lines from 0.5 to 1 times their longest. The wet level is scaled by
// (T60 / 4.8 s)^-0.05, so a held note's reverb grows 2 dB from size 10 to 90 as sfizz's
// does. reverb_tone is the input low-pass's corner and reverb_damp the lines' (their
// one-pole low-passes), on sfizz's scale: the pitch 21 + 1.08 x % (tone 100: 14 kHz;
// damping at 100 - damp/2, so damp 100 puts it at 622 Hz). reverb_predelay is in
// seconds (at most kMaxPredelaySeconds); the input is (L + R) / 2 x input%, the output
// dry% x the bus plus wet% x the network.
//
// The send's constructor and the bus's allocate() size the memory (control and loader
// threads); everything else runs on the audio thread.
#include <array>
#include <cstddef>
#include <vector>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/effects/EffectKind.h"

namespace spindle::engine {

struct ReverbSettings {
  float roomSize = 0.2f;  // 0..1
  float damping = 0.0f;   // 0..1: 0 keeps the highs as long as the lows
  float width = 0.5f;     // 0..100: 0 mono, 1 widest without opposed sides
  float level = 0.9f;     // 0..1: the wet output's gain
};

class Reverb : public EffectKindBase {
 public:
  static constexpr int kLines = 8;
  static constexpr double kMaxPredelaySeconds = 1.0;

  // ---- the send ----
  Reverb(double sampleRate, const ReverbSettings& settings);
  // Adds the reverb of `in` (mono) to left and right.
  void process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  void clear() noexcept SPINDLE_REALTIME;  // empties the lines: the tail stops at once
  void skip(int) noexcept SPINDLE_REALTIME {}  // frames with no input: nothing in it turns
  void set(const ReverbSettings& settings) noexcept SPINDLE_REALTIME;  // heard from the next process()
  float decaySeconds() const noexcept { return t60_; }  // T60 at low frequencies

  // ---- the bus effect kind (EffectKind.h) ----
  Reverb() = default;
  void allocate(const BusEffect& effect, const void* first);
  void start(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME;
  void configure(const BusEffect& effect, const BusParams& p) noexcept SPINDLE_REALTIME;
  void process(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  // The bus law's T60 for a decay in %; the decay of a reverb_type at a size in %; the
  // frequency of sfizz's pitch scale at a tone or damping in %.
  static double decaySeconds(double decayPercent) noexcept SPINDLE_REALTIME;
  static double decayPercent(int reverbType, double sizePercent) noexcept SPINDLE_REALTIME;
  static double pitchHz(double percent) noexcept SPINDLE_REALTIME;

  // Frames before an input has surely reached the output: the predelay and the longest line.
  int memoryFrames() const noexcept SPINDLE_REALTIME { return memoryFrames_; }

 private:
  struct Line {
    int length = 1;
    float gain = 1.0f, damp = 0.0f, state = 0.0f;
  };
  void size(size_t predelayCapacity, size_t lineCapacity);
  void configureSend(const ReverbSettings& s) noexcept SPINDLE_REALTIME;
  // One frame of the network: returns the left output, sets the right.
  float network(float in, float& right) noexcept SPINDLE_REALTIME;
  // Line i's frames (the memory holds the predelay, then the lines).
  float* buffer(size_t i) noexcept SPINDLE_REALTIME { return memory_.data() + predelayCapacity_ + i * lineCapacity_; }

  std::vector<float> memory_;
  std::array<Line, kLines> lines_{};
  size_t lineCapacity_ = 1, predelayCapacity_ = 1, at_ = 0;
  int predelayFrames_ = 0, memoryFrames_ = 0;
  double rate_ = 48000.0;
  // The send's output: same-side and cross-side gains, and where the next call ramps them.
  float t60_ = 1.0f;
  float wet1_ = 0.0f, wet2_ = 0.0f, targetWet1_ = 0.0f, targetWet2_ = 0.0f;
  // The bus's: the wet output's scale for the decay time, and the input's one-pole low-pass.
  float level_ = 0.5f;
  float tone_ = 1.0f, toneState_ = 0.0f;
};

}  // namespace spindle::engine
