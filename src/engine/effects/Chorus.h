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
// 0.3 Hz, 8 ms): one mono line, voice k's sweep starting 2 pi k / voices on, offset
// kMinDelay and scale half the depth. The two sums are spread like Freeverb's width:
// left' = a left + b right, right' = a right + b left, a = (w + 1) / 2, b = (1 - w) / 2,
// with w > 1: the sides come out mostly opposed, as FluidSynth's are (white noise
// through its chorus at the defaults: left/right correlation -0.94, per side 22.7 times
// the energy sent in; kWidth and kVoiceScale give -0.93 and the same energy). The line
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
  void clear() noexcept SPINDLE_REALTIME;
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
  // Line `channel`'s frame `delay` frames before the newest, between frames linearly.
  float tap(size_t channel, double delay) const noexcept SPINDLE_REALTIME;

  std::vector<float> memory_;  // `lines_` lines of size_ frames (a power of two)
  size_t size_ = 1, at_ = 0;
  int lines_ = 1, voices_ = 3;
  double rate_ = 48000.0;
  double offset_ = 0.0, scale_ = 0.0, targetScale_ = 0.0;  // frames
  std::array<mod::SinePhasor, kMaxVoices> sweeps_{};
  float gain_ = 0.0f, targetGain_ = 0.0f;  // the send's
  double hz_ = -1.0;                       // the bus's sweep rate now
  bool bus_ = false;
};

}  // namespace spindle::engine
