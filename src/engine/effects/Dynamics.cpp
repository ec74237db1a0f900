#include "engine/effects/Dynamics.h"

#include <cmath>

namespace spindle::engine {

void LofiEffect::start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME {
  rate_ = sampleRate;
  lofi_.setup(sampleRate);
}

void LofiEffect::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  lofi_.process(left, right, frames, step.at(BusParam::Bitred), step.at(BusParam::Decim));
}

void DistoEffect::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const auto percent = [&](BusParam p, const BusParams& at) noexcept SPINDLE_REALTIME { return 0.01f * busParam(at, p); };
  disto_.process(left, right, frames, step.at(BusParam::DistoTone), step.at(BusParam::DistoDepth),
                 static_cast<int>(std::lround(step.at(BusParam::DistoStages))), percent(BusParam::DistoDry, step.from),
                 percent(BusParam::DistoDry, step.to), percent(BusParam::DistoWet, step.from),
                 percent(BusParam::DistoWet, step.to), step.ramp);
}

void CompEffect::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  comp_.process(left, right, frames,
                {step.at(BusParam::CompAttack), step.at(BusParam::CompRelease), step.at(BusParam::CompRatio),
                 step.at(BusParam::CompThreshold), step.at(BusParam::CompGain), step.at(BusParam::CompLink) >= 0.5f});
}

void GateEffect::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  gate_.process(left, right, frames,
                {step.at(BusParam::GateAttack), step.at(BusParam::GateRelease), step.at(BusParam::GateThreshold),
                 step.at(BusParam::GateManual), step.at(BusParam::GateLink) >= 0.5f});
}

}  // namespace spindle::engine
