#include "engine/BusDynamics.h"

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

void BusDynamics::start(double sampleRate) noexcept SPINDLE_REALTIME {
  lofi_.setup(sampleRate);
  disto_.setup(sampleRate);
  comp_.setup(sampleRate);
  gate_.setup(sampleRate);
  limiter_.setup(sampleRate);
}

void BusDynamics::process(const BusEffect& effect, const Params& from, const Params& to, float* left, float* right,
                          int frames) noexcept SPINDLE_REALTIME {
  switch (effect.type) {
    case BusEffectType::Lofi:
      lofi_.process(left, right, frames, at(to, BusParam::Bitred), at(to, BusParam::Decim));
      break;
    case BusEffectType::Disto:
      disto_.process(left, right, frames, at(to, BusParam::DistoTone), at(to, BusParam::DistoDepth),
                     static_cast<int>(std::lround(at(to, BusParam::DistoStages))), 0.01f * at(from, BusParam::DistoDry),
                     0.01f * at(to, BusParam::DistoDry), 0.01f * at(from, BusParam::DistoWet),
                     0.01f * at(to, BusParam::DistoWet));
      break;
    case BusEffectType::Comp: comp_.process(left, right, frames, compSettings(to)); break;
    case BusEffectType::Gate: gate_.process(left, right, frames, gateSettings(to)); break;
    case BusEffectType::Limiter: limiter_.process(left, right, frames); break;
    default: break;
  }
}

}  // namespace spindle::engine
