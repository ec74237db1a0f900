#include "engine/effects/BusEffectState.h"

#include <algorithm>

namespace spindle::engine {

void BusEffectState::allocate(const BusEffect& effect, const BusEffectState* first, const mod::CurveTable* curves) {
  modulation_.setCurves(curves);
  makeKind(kind_, effect.type);
  visitKind(kind_, [&]<class Kind>(Kind& kind) {
    kind.allocate(effect, first ? std::get_if<Kind>(&first->kind_) : nullptr);
  });
}

int BusEffectState::memoryFrames(const BusEffect&) const noexcept SPINDLE_REALTIME {
  int frames = 0;
  visitKind(kind_, [&](const auto& kind) noexcept SPINDLE_REALTIME { frames = kind.memoryFrames(); });
  return frames;
}

void BusEffectState::start(const BusEffect& effect, const mod::ControllerState* controllers,
                           double sampleRate) noexcept SPINDLE_REALTIME {
  modulation_.start(effect, controllers, sampleRate);
  startBypass(sampleRate);
  visitKind(kind_, [&](auto& kind) noexcept SPINDLE_REALTIME {
    kind.start(effect, sampleRate);
    kind.configure(effect, modulation_.to());
  });
}

void BusEffectState::process(const BusEffect& effect, const mod::ControllerState* controllers, float* left,
                             float* right, int frames) noexcept SPINDLE_REALTIME {
  for (int done = 0; done < frames;) {
    if (modulation_.step(effect, controllers)) {
      visitKind(kind_, [&](auto& kind) noexcept SPINDLE_REALTIME { kind.configure(effect, modulation_.to()); });
    }
    const int n = std::min(modulation_.framesLeft(), frames - done);
    const EffectStep step{modulation_.from(), modulation_.to(), modulation_.ramp(), tempo_};
    runBypassable(effect, step, left + done, right + done, n);
    modulation_.ran(effect, n);
    done += n;
  }
}

void BusEffectState::run(const BusEffect& effect, const EffectStep& step, float* left, float* right,
                         int frames) noexcept SPINDLE_REALTIME {
  visitKind(kind_, [&](auto& kind) noexcept SPINDLE_REALTIME { kind.process(effect, step, left, right, frames); });
}

}  // namespace spindle::engine
