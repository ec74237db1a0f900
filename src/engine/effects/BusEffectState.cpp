#include "engine/effects/BusEffectState.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/mod/BusControls.h"
#include "engine/effects/BusShaper.h"
#include "engine/dsp/Shapers.h"
#include "engine/mod/LfoBank.h"

namespace spindle::engine {

namespace {

float param(const std::array<float, kBusParams>& p, BusParam which) noexcept SPINDLE_REALTIME {
  return p[static_cast<size_t>(which)];
}

FilterType eqFilterType(EqType type) noexcept SPINDLE_REALTIME {
  return type == EqType::LowShelf ? FilterType::Lsh : type == EqType::HighShelf ? FilterType::Hsh : FilterType::Peq;
}

// dsp::Filter's resonance (dB) for a quality factor: Q = 10^(resonance/20) / sqrt(2).
float resonanceForQ(double q) noexcept SPINDLE_REALTIME {
  return static_cast<float>(20.0 * std::log10(std::max(q, 1e-3) * std::numbers::sqrt2));
}

}  // namespace


void BusEffectState::start(const BusEffect& effect, const mod::ControllerState* controllers,
                           double sampleRate) noexcept SPINDLE_REALTIME {
  busSmoothing(effect, sampleRate, kStepFrames, kSmoothSeconds, smoothing_);
  modulation_.start(sampleRate);
  current_ = targets(effect, controllers);
  sampleRate_ = sampleRate;
  phase_ = 0.0;
  filter_.setup(effect.type == BusEffectType::Eq ? eqFilterType(effect.eqType) : effect.filterType, sampleRate);
  startTail(effect, sampleRate);
  startBypass(sampleRate);
  applyCoefficients(effect);
  dynamics_.start(sampleRate);
}

BusEffectState::Params BusEffectState::targets(const BusEffect& effect,
                                               const mod::ControllerState* controllers) const noexcept
    SPINDLE_REALTIME {
  return modulation_.targets(effect, controllers, curves_);
}

void BusEffectState::applyCoefficients(const BusEffect& effect) noexcept SPINDLE_REALTIME {
  if (effect.type == BusEffectType::Eq) {
    const float freq = std::clamp(param(current_, BusParam::EqFreq), dsp::Filter::kMinCutoffHz,
                                  dsp::Filter::kMaxCutoffFraction * static_cast<float>(sampleRate_));
    const double w0 = 2.0 * std::numbers::pi * static_cast<double>(freq) / sampleRate_;
    const double bw = std::clamp(static_cast<double>(param(current_, BusParam::EqBw)), 0.001, 4.0);
    filter_.setParams(freq, resonanceForQ(dsp::Eq::bandwidthToQ(bw, w0)), param(current_, BusParam::EqGain));
  }
  if (effect.type == BusEffectType::Filter)
    filter_.setParams(param(current_, BusParam::FilterCutoff),
                      param(current_, BusParam::FilterResonance) + kResonanceOffsetDb);
  tailCoefficients(effect);
}

void BusEffectState::process(const BusEffect& effect, const mod::ControllerState* controllers, float* left,
                             float* right, int frames) noexcept SPINDLE_REALTIME {
  const Params target = targets(effect, controllers);
  modulation_.advance(effect, frames);
  for (int done = 0; done < frames;) {
    const int n = std::min(kStepFrames, frames - done);
    const Params from = current_;
    bool moved = false;
    for (size_t i = 0; i < current_.size(); ++i) {
      const float next = current_[i] + smoothing_[i] * (target[i] - current_[i]);
      const bool close = std::fabs(target[i] - next) <= 1e-6f * std::max(1.0f, std::fabs(target[i]));
      const float value = close ? target[i] : next;
      moved = moved || value != current_[i];
      current_[i] = value;
    }
    if (moved) applyCoefficients(effect);
    runBypassable(effect, from, left + done, right + done, n);
    done += n;
  }
}

void BusEffectState::run(const BusEffect& effect, const Params& from, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  switch (effect.type) {
    case BusEffectType::Gain:
      dsp::rampGain(left, right, frames, param(from, BusParam::Gain), param(current_, BusParam::Gain));
      break;
    case BusEffectType::Eq:
    case BusEffectType::Filter: filter_.process(left, right, frames); break;
    case BusEffectType::Rectify:
      dsp::rampRectify(left, right, frames, param(from, BusParam::Rectify), param(current_, BusParam::Rectify));
      break;
    case BusEffectType::Width:
      dsp::rampWidth(left, right, frames, param(from, BusParam::Width), param(current_, BusParam::Width));
      break;
    case BusEffectType::Apan: autoPan(effect, from, left, right, frames); break;
    case BusEffectType::Delay: delay_.process(current_, left, right, frames); break;
    case BusEffectType::Phaser: phaser_.process(effect, current_, left, right, frames); break;
    case BusEffectType::Reverb: reverb_.process(current_, left, right, frames); break;
    case BusEffectType::Lofi:
    case BusEffectType::Disto:
    case BusEffectType::Comp:
    case BusEffectType::Gate:
    case BusEffectType::Limiter: dynamics_.process(effect, from, current_, left, right, frames); break;
    case BusEffectType::Convolution: convolution_.process(from, current_, left, right, frames); break;
    case BusEffectType::Chorus: chorus_.process(current_, left, right, frames); break;
    case BusEffectType::ModPhaser: modPhaser_.process(current_, left, right, frames); break;
    case BusEffectType::WaveFolder:
    case BusEffectType::WaveShaper: BusShaper::process(effect.type, current_, left, right, frames); break;
  }
}

// Depth, dry and wet ramp from `from` to current_ over the frames; the frequency and
// the phase offset hold for the step.
void BusEffectState::autoPan(const BusEffect& effect, const Params& from, float* left, float* right,
                             int frames) noexcept SPINDLE_REALTIME {
  const double step = std::max(0.0, static_cast<double>(param(current_, BusParam::ApanFreq))) / sampleRate_;
  const double offset = static_cast<double>(param(current_, BusParam::ApanPhase)) / 360.0;
  const float n = static_cast<float>(frames);
  const auto ramp = [&](BusParam p, int i) {
    const float a = param(from, p), b = param(current_, p);
    return 0.01f * (a + (b - a) * static_cast<float>(i + 1) / n);
  };
  for (int i = 0; i < frames; ++i) {
    const float depth = ramp(BusParam::ApanDepth, i), dry = ramp(BusParam::ApanDry, i), wet = ramp(BusParam::ApanWet, i);
    const double other = phase_ + offset;
    const float waveLeft = mod::LfoBank::wave(effect.wave, phase_);
    const float waveRight = mod::LfoBank::wave(effect.wave, other - std::floor(other));
    left[i] *= dry + wet * (1.0f - depth * waveLeft);
    right[i] *= dry + wet * (1.0f - depth * waveRight);
    phase_ += step;
    phase_ -= std::floor(phase_);
  }
}

}  // namespace spindle::engine
