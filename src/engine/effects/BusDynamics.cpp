#include "engine/effects/BusDynamics.h"

#include <cmath>

namespace spindle::engine {

namespace {

float at(const BusDynamics::Params& p, BusParam which) noexcept SPINDLE_REALTIME { return p[static_cast<size_t>(which)]; }

dsp::CompressorSettings compSettings(const BusDynamics::Params& p) noexcept SPINDLE_REALTIME {
  return {at(p, BusParam::CompAttack),    at(p, BusParam::CompRelease), at(p, BusParam::CompRatio),
          at(p, BusParam::CompThreshold), at(p, BusParam::CompGain),    at(p, BusParam::CompLink) >= 0.5f};
}

dsp::GateSettings gateSettings(const BusDynamics::Params& p) noexcept SPINDLE_REALTIME {
  return {at(p, BusParam::GateAttack), at(p, BusParam::GateRelease), at(p, BusParam::GateThreshold),
          at(p, BusParam::GateManual), at(p, BusParam::GateLink) >= 0.5f};
}

}  // namespace

void BusDynamics::prepare(BusEffectType type) noexcept {
  switch (type) {
    case BusEffectType::Lofi: processor_.emplace<dsp::Lofi>(); break;
    case BusEffectType::Disto: processor_.emplace<dsp::Disto>(); break;
    case BusEffectType::Comp: processor_.emplace<dsp::Compressor>(); break;
    case BusEffectType::Gate: processor_.emplace<dsp::Gate>(); break;
    case BusEffectType::Limiter: processor_.emplace<dsp::Limiter>(); break;
    default: processor_.emplace<std::monostate>(); break;
  }
}

void BusDynamics::start(double sampleRate) noexcept SPINDLE_REALTIME {
  if (auto* lofi = std::get_if<dsp::Lofi>(&processor_)) lofi->setup(sampleRate);
  if (auto* disto = std::get_if<dsp::Disto>(&processor_)) disto->setup(sampleRate);
  if (auto* comp = std::get_if<dsp::Compressor>(&processor_)) comp->setup(sampleRate);
  if (auto* gate = std::get_if<dsp::Gate>(&processor_)) gate->setup(sampleRate);
  if (auto* limiter = std::get_if<dsp::Limiter>(&processor_)) limiter->setup(sampleRate);
}

void BusDynamics::process(const BusEffect& effect, const Params& from, const Params& to, float* left, float* right,
                          int frames) noexcept SPINDLE_REALTIME {
  if (auto* lofi = std::get_if<dsp::Lofi>(&processor_)) {
    lofi->process(left, right, frames, at(to, BusParam::Bitred), at(to, BusParam::Decim));
  } else if (auto* disto = std::get_if<dsp::Disto>(&processor_)) {
    disto->process(left, right, frames, at(to, BusParam::DistoTone), at(to, BusParam::DistoDepth),
                   static_cast<int>(std::lround(at(to, BusParam::DistoStages))), 0.01f * at(from, BusParam::DistoDry),
                   0.01f * at(to, BusParam::DistoDry), 0.01f * at(from, BusParam::DistoWet),
                   0.01f * at(to, BusParam::DistoWet));
  } else if (auto* comp = std::get_if<dsp::Compressor>(&processor_)) {
    comp->process(left, right, frames, compSettings(to));
  } else if (auto* gate = std::get_if<dsp::Gate>(&processor_)) {
    gate->process(left, right, frames, gateSettings(to));
  } else if (auto* limiter = std::get_if<dsp::Limiter>(&processor_)) {
    limiter->process(left, right, frames);
  }
  (void)effect;
}

}  // namespace spindle::engine
