#pragma once
// Chorus: Spindle's one chorus: voices reading delay lines at delays a sine sweeps, run
// as the shared chorus SoundFont regions send to (CC93, effects/Effects.h) and as
// DecentSampler's `chorus` bus effect. Each voice k's sweep is a mod::SinePhasor (the one
// LFO sine, engine/mod/Wave.h); its left tap reads
//
//   offset + scale * (1 + depth * sin_k)      and its right tap  offset + scale * (1 - depth * cos_k),
//
// the same sine a quarter period later, each linearly interpolated (held within the line).
//
// The send (ChorusSettings: FluidSynth's names, ranges and defaults, 3 voices, level 2,
// 0.3 Hz, 8 ms) has FluidSynth 2.3's chorus's shape: one mono line, each voice one tap
// (read through a first-order all-pass as FluidSynth's, at offset + scale (1 - sin):
// offset 1 frame, scale half the depth, so the delay sweeps from 1 frame to the depth
// and back), voice k's sweep starting 2 pi k / voices on. The even
// voices sum into side A, the odd ones into side B, and with an odd count of 3 or more
// the last voice into B as well; then left = level (s A + o B), right = level (s B + o A)
// with FluidSynth's width w = 10 divided by 1 + 0.2 w: s = (w + 1) / 2 / 3 and
// o = (1 - w) / 2 / 3 (one voice: s = 1, o = -1). White noise through it at the
// defaults: per side 22.9 times the energy sent in, left/right correlation -0.94, as
// FluidSynth's (22.7, -0.94); the sides' sum, which a mono listener hears, keeps only
// (s + o) = 1/3 of each side's voices, as FluidSynth's does. The line
// holds the deepest sweep FluidSynth allows (256 ms), so set() changes any setting while
// it plays without allocating: the level and the depth glide to their new values over
// the next process() call (no click), the speed turns the sweeps' rotation, and a new
// number of voices spreads the phases again from voice 0's.
//
// The bus (DecentSampler's parameters, Spindle's own design; the guide gives only
// them): each channel its own line and one voice, offset 0, scale kCentreMs and depth
// kSweep x modDepth (at modDepth 1 the delay sweeps 1..13 ms), the sweep at modRate from
// phase 0; the output is (1 - mix) x + mix x the tap.
//
// The send's constructor and the bus's allocate() size the lines (control and loader
// threads); everything else runs on the audio thread.
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/effects/EffectKind.h"
#include "engine/mod/Wave.h"

namespace spindle::engine {

struct ChorusSettings {
  int voices = 3;         // 0..kMaxVoices (0: silent)
  float level = 2.0f;     // 0..10: the output's gain
  float speedHz = 0.3f;   // 0.1..5
  float depthMs = 8.0f;   // 0..256: the sweep of each tap's delay
};

class Chorus : public EffectKindBase {
 public:
  static constexpr int kMaxVoices = 99;         // FluidSynth's synth.chorus.nr
  static constexpr float kMaxDepthMs = 256.0f;  // and synth.chorus.depth
  static constexpr double kCentreMs = 7.0, kSweep = 6.0 / 7.0;  // the bus's

  // ---- the send ----
  Chorus(double sampleRate, const ChorusSettings& settings);
  // Adds the chorus of `in` (mono) to left and right.
  void process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  void clear() noexcept SPINDLE_REALTIME;  // empties the line; the sweeps turn on
  // `frames` frames pass with no input: the sweeps turn as they would have, so where
  // they stand depends on the time since the chorus was made, not on when it ran.
  void skip(int frames) noexcept SPINDLE_REALTIME;
  void set(const ChorusSettings& settings) noexcept SPINDLE_REALTIME;  // heard from the next process()

  // ---- the bus effect kind (EffectKind.h) ----
  Chorus() = default;
  void allocate(const BusEffect& effect, const void* first);
  void start(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME;
  void process(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;

  // Frames an input takes at most to reach the output.
  int memoryFrames() const noexcept SPINDLE_REALTIME;

 private:
  void size(double longestFrames, int lines);
  void spreadPhases(double angle0) noexcept SPINDLE_REALTIME;
  static std::pair<float, float> sideGains(int voices) noexcept SPINDLE_REALTIME;
  // Line `channel`'s frame `delay` frames before the newest, between frames linearly.
  float tap(size_t channel, double delay) const noexcept SPINDLE_REALTIME;
  // The send's voice `voice`'s tap `delay` frames back, through its all-pass.
  float allPassTap(size_t voice, double delay) noexcept SPINDLE_REALTIME;

  std::vector<float> memory_;  // `lines_` lines of size_ frames (a power of two)
  size_t size_ = 1, at_ = 0;
  int lines_ = 1, voices_ = 3;
  double rate_ = 48000.0;
  double offset_ = 0.0, scale_ = 0.0, targetScale_ = 0.0;  // frames
  std::array<mod::SinePhasor, kMaxVoices> sweeps_{};
  std::array<float, kMaxVoices> allPass_{};  // each send voice's last output
  float gain_ = 0.0f, targetGain_ = 0.0f;  // the send's
  double hz_ = -1.0;                       // the bus's sweep rate now
  double hzSend_ = 0.3;                    // the send's
  bool bus_ = false;
};

}  // namespace spindle::engine
