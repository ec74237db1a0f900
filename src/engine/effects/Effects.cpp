#include "engine/effects/Effects.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace spindle::engine {

EffectsStage::EffectsStage(double sampleRate, int maxBlockFrames, const EffectsSettings& settings)
    : settings_(settings),
      reverb_(sampleRate, settings.reverb),
      chorus_(sampleRate, settings.chorus),
      returnLeft_(static_cast<size_t>(maxBlockFrames)),
      returnRight_(static_cast<size_t>(maxBlockFrames)) {
  for (auto& in : inputs_) in.assign(static_cast<size_t>(maxBlockFrames), 0.0f);
  master_.start(sampleRate);
  master_.aim(std::pow(10.0f, settings_.masterGainDb / 20.0f));
}

void setEffectsSetting(EffectsSettings& s, EffectParam p, float v) noexcept SPINDLE_REALTIME {
  const auto& info = effectParamInfo(p);
  v = std::isfinite(v) ? std::clamp(v, info.min, info.max) : info.def;
  switch (p) {
    case EffectParam::ReverbOn: s.reverbOn = v >= 0.5f; break;
    case EffectParam::ReverbRoomSize: s.reverb.roomSize = v; break;
    case EffectParam::ReverbDamping: s.reverb.damping = v; break;
    case EffectParam::ReverbWidth: s.reverb.width = v; break;
    case EffectParam::ReverbLevel: s.reverb.level = v; break;
    case EffectParam::ChorusOn: s.chorusOn = v >= 0.5f; break;
    case EffectParam::ChorusVoices: s.chorus.voices = static_cast<int>(std::lround(v)); break;
    case EffectParam::ChorusLevel: s.chorus.level = v; break;
    case EffectParam::ChorusSpeed: s.chorus.speedHz = v; break;
    case EffectParam::ChorusDepth: s.chorus.depthMs = v; break;
    case EffectParam::MasterGain: s.masterGainDb = v; break;
  }
}

EffectsSettings effectsSettings(const EffectValues& values) noexcept SPINDLE_REALTIME {
  EffectsSettings s;
  for (const auto& info : kEffectParamTable) setEffectsSetting(s, info.id, values.get(info.id));
  return s;
}

void EffectsStage::set(EffectParam p, float value) noexcept SPINDLE_REALTIME {
  setEffectsSetting(settings_, p, value);
  reverb_.set(settings_.reverb);
  chorus_.set(settings_.chorus);
  master_.aim(std::pow(10.0f, settings_.masterGainDb / 20.0f));
}

float* EffectsStage::input(SendBus b) noexcept SPINDLE_REALTIME {
  const bool on = b == SendBus::Reverb ? settings_.reverbOn : settings_.chorusOn;
  return on ? inputs_[static_cast<size_t>(b)].data() : nullptr;
}

void EffectsStage::render(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  run(reverb_, static_cast<size_t>(SendBus::Reverb), left, right, frames);
  run(chorus_, static_cast<size_t>(SendBus::Chorus), left, right, frames);
  applyMaster(left, right, frames);
}

void EffectsStage::applyMaster(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (master_.steady() && master_.level() == 1.0f) return;
  for (int i = 0; i < frames; ++i) {
    const float gain = master_.next();
    left[i] *= gain;
    right[i] *= gain;
  }
}

// Runs one effect over the block while it sounds or from the first frame sent to it,
// and adds its return to the main pair. It stops at the frame where it has had no input
// and come out below kSilence for its memory's length, and starts again at the next
// frame sent to it: where it runs never depends on where blocks end.
// The frames where it does not run pass through skip(), so a chorus's sweeps stand
// where a chorus running since the stage was made would have them.
template <class Effect>
void EffectsStage::run(Effect& effect, size_t bus, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const bool fed = std::exchange(fed_[bus], false);
  if (!fed && !running_[bus]) return effect.skip(frames);
  const float* in = inputs_[bus].data();
  const auto firstSent = [&](int from) noexcept SPINDLE_REALTIME {
    while (from < frames && in[from] == 0.0f) ++from;
    return from;
  };
  int done = 0;
  for (int from = running_[bus] ? 0 : firstSent(0); from < frames; from = firstSent(from)) {
    effect.skip(from - done);
    running_[bus] = true;
    from = done = runFrom(effect, bus, left, right, from, frames);
  }
  effect.skip(frames - done);
  if (fed) std::fill_n(inputs_[bus].begin(), frames, 0.0f);
}

// Runs the effect over frames [from, frames) and adds its return; returns `frames`, or
// the frame after the one it stopped at (cleared).
template <class Effect>
int EffectsStage::runFrom(Effect& effect, size_t bus, float* left, float* right, int from, int frames) noexcept
    SPINDLE_REALTIME {
  const float* in = inputs_[bus].data() + from;
  const int n = frames - from;
  std::fill_n(returnLeft_.begin(), n, 0.0f);
  std::fill_n(returnRight_.begin(), n, 0.0f);
  effect.process(in, returnLeft_.data(), returnRight_.data(), n);
  const int memory = effect.memoryFrames();
  int quiet = quietFrames_[bus];
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    left[from + i] += returnLeft_[k];
    right[from + i] += returnRight_[k];
    const bool sounds = in[i] != 0.0f || std::fabs(returnLeft_[k]) >= kSilence || std::fabs(returnRight_[k]) >= kSilence;
    quiet = sounds ? 0 : quiet + 1;
    if (quiet >= memory) {
      quietFrames_[bus] = 0;
      running_[bus] = false;
      effect.clear();
      return from + i + 1;
    }
  }
  quietFrames_[bus] = quiet;
  return frames;
}

}  // namespace spindle::engine
