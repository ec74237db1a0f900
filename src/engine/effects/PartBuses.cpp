#include "engine/effects/PartBuses.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/Limits.h"
#include "core/PartEffects.h"

namespace spindle::engine {

ProgramBuses::ProgramBuses(BusLayout layout, const std::vector<ModCurve>& curves)
    : layout_(std::move(layout)),
      states_(layout_.effects.size() * static_cast<size_t>(limits::kChannels)),
      tails_(static_cast<size_t>(limits::kChannels)) {
  for (const ModCurve& c : curves) curves_.define(c.index, c.points);
  const size_t count = layout_.effects.size();
  for (size_t i = 0; i < states_.size(); ++i)
    states_[i].allocate(layout_.effects[i % count], i < count ? nullptr : &states_[i % count], &curves_);
}

std::span<BusEffectState> ProgramBuses::partStates(int part) noexcept SPINDLE_REALTIME {
  const size_t count = layout_.effects.size();
  return {states_.data() + static_cast<size_t>(part) * count, count};
}

void ProgramBuses::start(int part, const mod::ControllerState* controllers, double sampleRate) noexcept
    SPINDLE_REALTIME {
  const std::span<BusEffectState> states = partStates(part);
  Tail& tail = tails_[static_cast<size_t>(part)];
  tail = {};
  for (size_t i = 0; i < states.size(); ++i) {
    const BusEffect& effect = layout_.effects[i];
    states[i].start(effect, controllers, sampleRate);
    int& memory = tail.memory[effect.bus];
    memory = std::max(memory, states[i].memoryFrames(effect));
  }
  tail.quiet = tail.memory;  // nothing sounds yet
}

void ProgramBuses::setBypass(int part, uint64_t mask) noexcept SPINDLE_REALTIME {
  const std::span<BusEffectState> states = partStates(part);
  for (size_t i = 0; i < states.size(); ++i) states[i].bypass(effectBypassed(mask, static_cast<int>(i)));
}

bool ProgramBuses::sounding(int part) const noexcept SPINDLE_REALTIME {
  const Tail& tail = tails_[static_cast<size_t>(part)];
  for (int bus = 0; bus < kBuses; ++bus)
    if (tailSounds(tail, bus)) return true;
  return false;
}

// A bus with memory: its quiet frames start again whenever its input or its output is
// heard (an echo comes out long after its input; an input may start in silence).
bool ProgramBuses::loud(const float* left, const float* right, int frames) noexcept SPINDLE_REALTIME {
  float peak = 0.0f;
  for (int i = 0; i < frames; ++i) peak = std::max({peak, std::fabs(left[i]), std::fabs(right[i])});
  return peak > kSilence;
}

void ProgramBuses::listen(Tail& t, int bus, const float* left, const float* right, int frames) noexcept
    SPINDLE_REALTIME {
  int& quiet = t.quiet[static_cast<size_t>(bus)];
  const int memory = t.memory[static_cast<size_t>(bus)];
  if (memory > 0) quiet = loud(left, right, frames) ? 0 : std::min(quiet + frames, memory);
}

void ProgramBuses::heard(Tail& t, int bus, const float* left, const float* right, int frames) noexcept
    SPINDLE_REALTIME {
  if (t.memory[static_cast<size_t>(bus)] > 0 && loud(left, right, frames)) t.quiet[static_cast<size_t>(bus)] = 0;
}

void ProgramBuses::process(int part, const mod::ControllerState* controllers, float* left, float* right,
                           FxBusInputs& fx, int frames) noexcept SPINDLE_REALTIME {
  const std::span<BusEffectState> states = partStates(part);
  Tail& tail = tails_[static_cast<size_t>(part)];
  heard(tail, 0, left, right, frames);
  runBus(states, 0, controllers, left, right, frames);
  listen(tail, 0, left, right, frames);
  const float direct = layout_.toOutput[0];
  if (direct != 1.0f) {
    for (int i = 0; i < frames; ++i) {
      left[i] *= direct;
      right[i] *= direct;
    }
  }
  for (size_t n = 0; n < static_cast<size_t>(kFxBuses); ++n) {
    const int bus = static_cast<int>(n) + 1;
    if (!std::exchange(fx.fed[n], false) && !tailSounds(tail, bus)) continue;
    float* busLeft = fx.left[n];
    float* busRight = fx.right[n];
    heard(tail, bus, busLeft, busRight, frames);
    runBus(states, bus, controllers, busLeft, busRight, frames);
    listen(tail, bus, busLeft, busRight, frames);
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
    if (effect.bus != bus) continue;
    states[i].setTempo(tempo_);
    states[i].process(effect, controllers, left, right, frames);
  }
}

}  // namespace spindle::engine
