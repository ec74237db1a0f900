#include "engine/PartBuses.h"

#include <algorithm>
#include <utility>

#include "core/Limits.h"

namespace spindle::engine {

ProgramBuses::ProgramBuses(BusLayout layout)
    : layout_(std::move(layout)), states_(layout_.effects.size() * static_cast<size_t>(limits::kChannels)) {
  for (size_t i = 0; i < states_.size(); ++i) states_[i].prepare(layout_.effects[i % layout_.effects.size()]);
}

std::span<BusEffectState> ProgramBuses::partStates(int part) noexcept SPINDLE_REALTIME {
  const size_t count = layout_.effects.size();
  return {states_.data() + static_cast<size_t>(part) * count, count};
}

void ProgramBuses::start(int part, const mod::ControllerState* controllers, double sampleRate) noexcept
    SPINDLE_REALTIME {
  const std::span<BusEffectState> states = partStates(part);
  for (size_t i = 0; i < states.size(); ++i) states[i].start(layout_.effects[i], controllers, sampleRate);
}

void ProgramBuses::process(int part, const mod::ControllerState* controllers, float* left, float* right,
                           FxBusInputs& fx, int frames) noexcept SPINDLE_REALTIME {
  const std::span<BusEffectState> states = partStates(part);
  runBus(states, 0, controllers, left, right, frames);
  const float direct = layout_.toOutput[0];
  if (direct != 1.0f) {
    for (int i = 0; i < frames; ++i) {
      left[i] *= direct;
      right[i] *= direct;
    }
  }
  for (size_t n = 0; n < static_cast<size_t>(kFxBuses); ++n) {
    if (!std::exchange(fx.fed[n], false)) continue;
    float* busLeft = fx.left[n];
    float* busRight = fx.right[n];
    runBus(states, static_cast<int>(n) + 1, controllers, busLeft, busRight, frames);
    const float level = layout_.toOutput[n + 1];
    for (int i = 0; i < frames; ++i) {
      left[i] += busLeft[i] * level;
      right[i] += busRight[i] * level;
    }
    std::fill_n(busLeft, frames, 0.0f);
    std::fill_n(busRight, frames, 0.0f);
  }
}

// The bus's effects in file order, in place.
void ProgramBuses::runBus(std::span<BusEffectState> states, int bus, const mod::ControllerState* controllers,
                          float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  for (size_t i = 0; i < states.size(); ++i) {
    const BusEffect& effect = layout_.effects[i];
    if (effect.bus == bus) states[i].process(effect, controllers, left, right, frames);
  }
}

}  // namespace spindle::engine
