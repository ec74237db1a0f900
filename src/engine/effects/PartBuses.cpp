#include "engine/effects/PartBuses.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/Limits.h"
#include "core/PartEffects.h"

namespace spindle::engine {

ProgramBuses::ProgramBuses(BusLayout layout, const std::vector<ModCurve>& curves)
    : layout_(std::move(layout)),
      states_(layout_.effects.size() * static_cast<size_t>(limits::kEngineParts)),
      runs_(static_cast<size_t>(limits::kEngineParts)) {
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
  Runs& runs = runs_[static_cast<size_t>(part)];
  runs = {};
  for (size_t i = 0; i < states.size(); ++i) {
    const BusEffect& effect = layout_.effects[i];
    states[i].start(effect, controllers, sampleRate);
    int& memory = runs[effect.bus].memory;
    memory = std::max({memory, states[i].memoryFrames(effect), mod::kControlFrames});
  }
}

void ProgramBuses::setBypass(int part, uint64_t mask) noexcept SPINDLE_REALTIME {
  const std::span<BusEffectState> states = partStates(part);
  for (size_t i = 0; i < states.size(); ++i) states[i].bypass(effectBypassed(mask, static_cast<int>(i)));
}

bool ProgramBuses::sounding(int part) const noexcept SPINDLE_REALTIME {
  const Runs& runs = runs_[static_cast<size_t>(part)];
  return std::any_of(runs.begin(), runs.end(), [](const Run& r) noexcept { return r.running; });
}

int ProgramBuses::memoryFrames(int part) const noexcept SPINDLE_REALTIME {
  int frames = 0;
  for (const Run& run : runs_[static_cast<size_t>(part)]) frames = std::max(frames, run.memory);
  return frames;
}

int ProgramBuses::lastLoud(const float* left, const float* right, int frames) noexcept SPINDLE_REALTIME {
  for (int i = frames - 1; i >= 0; --i)
    if (std::fabs(left[i]) > kSilence || std::fabs(right[i]) > kSilence) return i;
  return -1;
}

void ProgramBuses::process(int part, const mod::ControllerState* controllers, float* left, float* right,
                           FxBusInputs& fx, int frames, bool cut) noexcept SPINDLE_REALTIME {
  const std::span<BusEffectState> states = partStates(part);
  Runs& runs = runs_[static_cast<size_t>(part)];
  if (cut)
    for (size_t i = 0; i < states.size(); ++i) states[i].cut(layout_.effects[i]);
  runBus(states, runs[0], 0, controllers, left, right, frames);
  const float direct = layout_.toOutput[0];
  if (direct != 1.0f) {
    for (int i = 0; i < frames; ++i) {
      left[i] *= direct;
      right[i] *= direct;
    }
  }
  for (size_t n = 0; n < static_cast<size_t>(kFxBuses); ++n) {
    Run& run = runs[n + 1];
    if (!std::exchange(fx.fed[n], false) && !run.running) continue;
    float* busLeft = fx.left[n];
    float* busRight = fx.right[n];
    runBus(states, run, static_cast<int>(n) + 1, controllers, busLeft, busRight, frames);
    const float level = layout_.toOutput[n + 1];
    for (int i = 0; i < frames; ++i) {
      left[i] += busLeft[i] * level;
      right[i] += busRight[i] * level;
    }
    std::fill_n(busLeft, frames, 0.0f);
    std::fill_n(busRight, frames, 0.0f);
  }
}

// The bus over [0, frames), frame by frame as to when it runs: from its input's first
// frame that is not 0.0 while it does not, in runs that cannot outlast its quiet time,
// until its input and output have been quiet for its memory.
void ProgramBuses::runBus(std::span<BusEffectState> states, Run& run, int bus, const mod::ControllerState* controllers,
                          float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (run.memory == 0) return;  // no effects: it passes its input on
  for (int done = 0; done < frames;) {
    if (!run.running) {
      while (done < frames && left[done] == 0.0f && right[done] == 0.0f) ++done;
      if (done == frames) return;  // silent, and nothing runs to change that
      run = {run.memory, 0, true};
    }
    const int n = std::min(frames - done, run.memory - run.quiet);
    const int heard = lastLoud(left + done, right + done, n);
    runEffects(states, bus, controllers, left + done, right + done, n);
    const int last = std::max(heard, lastLoud(left + done, right + done, n));
    run.quiet = last >= 0 ? n - 1 - last : run.quiet + n;
    if (run.quiet >= run.memory) run = {run.memory, 0, false};
    done += n;
  }
}

// The bus's effects in file order, in place.
void ProgramBuses::runEffects(std::span<BusEffectState> states, int bus, const mod::ControllerState* controllers,
                              float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  for (size_t i = 0; i < states.size(); ++i) {
    const BusEffect& effect = layout_.effects[i];
    if (effect.bus != bus) continue;
    states[i].setTempo(tempo_);
    states[i].process(effect, controllers, left, right, frames);
  }
}

}  // namespace spindle::engine
