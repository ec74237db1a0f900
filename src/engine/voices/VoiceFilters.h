#pragma once
// VoiceFilters: a voice's two filters (fil_*, then fil2_*), the cutoff and resonance
// they start from (keytrack, veltrack, random), and what moves them: the controller
// sums of cutoff, resonance and gain (at control rate, VoiceControl.cpp) and, for the
// first filter only, fileg + fillfo, whose cents re-set the cutoff every kStep frames.
// Audio thread only; a member of Voice, set up again at every note start.
#include <algorithm>
#include <cmath>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/voices/Random.h"
#include "engine/dsp/Filter.h"
#include "engine/mod/ControlRate.h"
#include "engine/mod/VoiceMod.h"
#include "engine/mod/VoiceSources.h"

namespace spindle::engine {

class VoiceFilters {
 public:
  static constexpr int kStep = mod::kControlFrames;  // frames between cutoff updates while fileg/fillfo move it

  // At note start, before setup(): no controller sums yet.
  void clearModulation() noexcept SPINDLE_REALTIME;
  // Draws the random parts of the first filter, then of the second (each only when the
  // filter is on); a mono voice filters one channel.
  void setup(const Region& r, int key, int velocity, double sampleRate, bool stereo, Prng& rng) noexcept
      SPINDLE_REALTIME;
  // Whether fileg or fillfo move the first filter (after the voice's sources start).
  void setSourcesMove(bool moving) noexcept { sourcesMove_ = first_ && moving; }
  // Control rate: the cutoff, resonance and gain sums of controller modulation.
  void followModulation(const mod::VoiceMod& mod) noexcept SPINDLE_REALTIME;
  // Filters `frames` frames in place; env and lfo are scratch for fileg and fillfo.
  void process(float* left, float* right, int frames, mod::VoiceSources& sources, float* env, float* lfo) noexcept
      SPINDLE_REALTIME;

 private:
  // One filter's note-start cutoff (Hz), resonance and gain (dB), and its controller sums.
  struct Settings {
    float cutoff = 0.0f, resonance = 0.0f, gain = 0.0f;
    float modCents = 0.0f, modResonance = 0.0f, modGain = 0.0f;
    float modHz = 0.0f;  // CutoffHz / Cutoff2Hz: added before the cents apply
    // The cutoff after `cents` more: (cutoff + modHz) * 2^(cents / 1200), at least 1 Hz.
    float hz(float cents) const noexcept { return std::max(1.0f, cutoff + modHz) * std::exp2(cents / 1200.0f); }
  };
  void setupFirst(const Region& r, int key, int velocity, double sampleRate, Prng& rng) noexcept SPINDLE_REALTIME;
  void setupSecond(const Region& r, int key, int velocity, double sampleRate, Prng& rng) noexcept SPINDLE_REALTIME;
  void processFirst(float* left, float* right, int frames, mod::VoiceSources& sources, float* env,
                    float* lfo) noexcept SPINDLE_REALTIME;
  void processSpan(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;

  dsp::Filter filter_, filter2_;
  Settings one_, two_;
  bool first_ = false, second_ = false;  // cutoff, cutoff2 given
  bool sourcesMove_ = false;
  uint64_t stepClock_ = 0;  // frames the first filter ran since the note started
  bool stereo_ = false;
};

}  // namespace spindle::engine
