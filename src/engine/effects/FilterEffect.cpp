#include "engine/effects/FilterEffect.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/dsp/Eq.h"

namespace spindle::engine {

namespace {

FilterType eqFilterType(EqType type) noexcept SPINDLE_REALTIME {
  return type == EqType::LowShelf ? FilterType::Lsh : type == EqType::HighShelf ? FilterType::Hsh : FilterType::Peq;
}

// dsp::Filter's resonance (dB) for a quality factor: Q = 10^(resonance/20) / sqrt(2).
float resonanceForQ(double q) noexcept SPINDLE_REALTIME {
  return static_cast<float>(20.0 * std::log10(std::max(q, 1e-3) * std::numbers::sqrt2));
}

}  // namespace

void FilterEffect::start(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME {
  rate_ = sampleRate;
  filter_.setup(effect.type == BusEffectType::Eq ? eqFilterType(effect.eqType) : effect.filterType, sampleRate);
}

void FilterEffect::configure(const BusEffect& effect, const BusParams& p) noexcept SPINDLE_REALTIME {
  if (effect.type == BusEffectType::Filter) {
    filter_.setParams(busParam(p, BusParam::FilterCutoff), busParam(p, BusParam::FilterResonance) + kResonanceOffsetDb);
    return;
  }
  const float freq = std::clamp(busParam(p, BusParam::EqFreq), dsp::Filter::kMinCutoffHz,
                                dsp::Filter::kMaxCutoffFraction * static_cast<float>(rate_));
  const double w0 = 2.0 * std::numbers::pi * static_cast<double>(freq) / rate_;
  const double bw = std::clamp(static_cast<double>(busParam(p, BusParam::EqBw)), 0.001, 4.0);
  filter_.setParams(freq, resonanceForQ(dsp::Eq::bandwidthToQ(bw, w0)), busParam(p, BusParam::EqGain));
}

}  // namespace spindle::engine
