// VoiceFilters: note-start setup, controller modulation and the per-frame stage.
#include "engine/voices/VoiceFilters.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine {

namespace {

// One filter's opcodes at note start (fil_* or fil2_*).
struct FilterOpcodes {
  float cutoff, keytrack;
  uint8_t keycenter;
  float veltrack, random, resonance, resonanceRandom;
};
struct TrackedFilter {
  float cutoff, resonance;
};

// The cutoff with keytrack, veltrack and a bipolar random (cents), the resonance with a
// unipolar random (dB); the random draws come in that order, each only when non-zero.
TrackedFilter track(const FilterOpcodes& o, int key, int velocity, Prng& rng) noexcept SPINDLE_REALTIME {
  float cents = o.keytrack * static_cast<float>(key - o.keycenter);
  cents += o.veltrack * static_cast<float>(velocity) / 127.0f;
  if (o.random > 0.0f) cents += o.random * rng.bipolar();
  float resonance = o.resonance;
  if (o.resonanceRandom > 0.0f) resonance += o.resonanceRandom * rng.uniform();
  return {o.cutoff * std::exp2(cents / 1200.0f), resonance};
}

}  // namespace

void VoiceFilters::clearModulation() noexcept SPINDLE_REALTIME {
  one_.modCents = one_.modResonance = two_.modCents = two_.modResonance = 0.0f;
  one_.modGain = two_.modGain = 0.0f;
  one_.modHz = two_.modHz = 0.0f;
}

void VoiceFilters::setup(const Region& r, int key, int velocity, double sampleRate, bool stereo, Prng& rng) noexcept
    SPINDLE_REALTIME {
  stereo_ = stereo;
  stepClock_ = 0;
  setupFirst(r, key, velocity, sampleRate, rng);
  setupSecond(r, key, velocity, sampleRate, rng);
}

// Cutoff with fil_keytrack, fil_veltrack and a bipolar fil_random, in cents; no
// fil_type with a cutoff means lpf_2p. fileg and fillfo move it while rendering.
// resonance_random is unipolar, [0, resonance_random] dB, like amp_random: the reference
// gives 0..40 dB and no sign, and a bipolar draw around the default resonance 0 would be
// cut at 0 by the filter.
void VoiceFilters::setupFirst(const Region& r, int key, int velocity, double sampleRate, Prng& rng) noexcept
    SPINDLE_REALTIME {
  first_ = r.cutoff >= 0.0f;
  if (!first_) return;
  const TrackedFilter f = track({r.cutoff, r.filKeytrack, r.filKeycenter, r.filVeltrack, r.filRandom, r.resonance,
                                  r.resonanceRandom}, key, velocity, rng);
  one_.cutoff = f.cutoff;
  one_.resonance = f.resonance;
  one_.gain = r.filGain;
  filter_.setup(r.filType == FilterType::None ? FilterType::Lpf2p : r.filType, sampleRate);
  filter_.setParams(one_.hz(one_.modCents), one_.resonance + one_.modResonance,
                    one_.gain + one_.modGain);
}

// fil2_type, cutoff2...: as the first filter, with its own keytrack, veltrack, random.
void VoiceFilters::setupSecond(const Region& r, int key, int velocity, double sampleRate, Prng& rng) noexcept
    SPINDLE_REALTIME {
  second_ = r.cutoff2 >= 0.0f;
  if (!second_) return;
  const TrackedFilter f = track({r.cutoff2, r.fil2Keytrack, r.fil2Keycenter, r.fil2Veltrack, r.cutoff2Random,
                                  r.resonance2, r.resonance2Random}, key, velocity, rng);
  two_.cutoff = f.cutoff;
  two_.resonance = f.resonance;
  two_.gain = r.fil2Gain;
  filter2_.setup(r.fil2Type == FilterType::None ? FilterType::Lpf2p : r.fil2Type, sampleRate);
  filter2_.setParams(two_.hz(two_.modCents), two_.resonance + two_.modResonance,
                     two_.gain + two_.modGain);
}

// A first filter that fileg or fillfo move adds the sums in process() itself.
void VoiceFilters::followModulation(const mod::VoiceMod& mod) noexcept SPINDLE_REALTIME {
  using T = ModTarget;
  const float cutoffCents = mod.sum(T::Cutoff), resonance = mod.sum(T::Resonance), gain = mod.sum(T::FilGain);
  const float cutoffHz = mod.sum(T::CutoffHz), cutoff2Hz = mod.sum(T::Cutoff2Hz);
  const bool filterMoved = cutoffCents != one_.modCents || resonance != one_.modResonance || gain != one_.modGain ||
                           cutoffHz != one_.modHz;
  one_.modCents = cutoffCents;
  one_.modHz = cutoffHz;
  one_.modResonance = resonance;
  one_.modGain = gain;
  if (first_ && filterMoved && !sourcesMove_)
    filter_.setParams(one_.hz(one_.modCents), one_.resonance + one_.modResonance,
                      one_.gain + gain);
  const float cutoff2Cents = mod.sum(T::Cutoff2), resonance2 = mod.sum(T::Resonance2);
  const float gain2 = mod.sum(T::Fil2Gain);
  if (cutoff2Cents != two_.modCents || resonance2 != two_.modResonance || gain2 != two_.modGain ||
      cutoff2Hz != two_.modHz) {
    two_.modCents = cutoff2Cents;
    two_.modHz = cutoff2Hz;
    two_.modResonance = resonance2;
    two_.modGain = gain2;
    if (second_) {
      const float hz = two_.hz(two_.modCents);
      filter2_.setParams(hz, two_.resonance + two_.modResonance, two_.gain + gain2);
    }
  }
}

void VoiceFilters::process(float* left, float* right, int frames, mod::VoiceSources& sources, float* env,
                           float* lfo) noexcept SPINDLE_REALTIME {
  if (first_) processFirst(left, right, frames, sources, env, lfo);
  if (!second_) return;
  if (stereo_) {
    filter2_.process(left, right, frames);
  } else {
    filter2_.processMono(left, frames);
  }
}

void VoiceFilters::processFirst(float* left, float* right, int frames, mod::VoiceSources& sources, float* env,
                                float* lfo) noexcept SPINDLE_REALTIME {
  if (!sourcesMove_) {
    processSpan(left, right, frames);
    return;
  }
  sources.processEnvelope(mod::V1Dest::Fil, env, frames);
  sources.processLfo(mod::V1Dest::Fil, lfo, frames);
  const float depth = sources.depth(mod::V1Dest::Fil);
  // The cutoff steps every kStep frames of the voice's own, wherever the blocks end.
  for (int i = 0; i < frames;) {
    const int into = static_cast<int>(stepClock_ % kStep);
    const int len = std::min(kStep - into, frames - i);
    if (into == 0) {
      const float cents = env[i] * depth + lfo[i] + one_.modCents;
      filter_.setParams(one_.hz(cents), one_.resonance + one_.modResonance, one_.gain + one_.modGain);
    }
    processSpan(left + i, right + i, len);
    i += len;
    stepClock_ += static_cast<uint64_t>(len);
  }
}

void VoiceFilters::processSpan(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (stereo_) {
    filter_.process(left, right, frames);
  } else {
    filter_.processMono(left, frames);
  }
}

}  // namespace spindle::engine
