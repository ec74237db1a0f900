// Engine: the parts' SFZ effect buses (engine/effects/PartBuses.h). A part whose program has a
// bus layout mixes its voices through it; when the part switches programs and either
// has one, the old program's buses fade out and the new one's fade in over
// kBusFadeSeconds, both fed the same voices, so a chain swap never clicks.
#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/EngineImpl.h"

namespace spindle::engine {

// The part's voices are in partLeft/partRight (its main bus) and the fx buses they fed:
// its program's effects run over them and leave the part's mix in partLeft/partRight.
void Engine::Impl::runPartBuses(int part, RenderContext& ctx, int frames) noexcept SPINDLE_REALTIME {
  fxInputs.fed = std::exchange(ctx.fxSent, {});
  Part& p = parts[static_cast<size_t>(part)];
  if (p.program && p.program->buses) p.program->buses->setBypass(part, p.effectBypass);
  if (p.busFadeFrom) return crossfadeBuses(part, frames, ctx.cut);
  mixBuses(p.program, part, partLeft.data(), partRight.data(), fxInputs, frames, ctx.cut);
}

bool Engine::Impl::busTailSounds(int part) const noexcept SPINDLE_REALTIME {
  const Program* program = parts[static_cast<size_t>(part)].program;
  return program && program->buses && program->buses->sounding(part);
}

// A part without voices whose buses still sound: they run on silence into its output.
void Engine::Impl::runBusTail(int part, RenderContext& ctx, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  std::fill_n(partLeft.begin(), frames, 0.0f);
  std::fill_n(partRight.begin(), frames, 0.0f);
  runPartBuses(part, ctx, frames);
  mixPart(part, left, right, frames);
}

// A program without buses passes the main bus on and drops the fx buses.
void Engine::Impl::mixBuses(const Program* program, int part, float* left, float* right, FxBusInputs& fx,
                            int frames, bool cut) noexcept SPINDLE_REALTIME {
  if (program && program->buses) {
    program->buses->setTempo(tempo);
    program->buses->process(part, &parts[static_cast<size_t>(part)].controllers, left, right, fx, frames, cut);
    return;
  }
  for (size_t n = 0; n < fx.fed.size(); ++n) {
    if (!std::exchange(fx.fed[n], false)) continue;
    std::fill_n(fx.left[n], frames, 0.0f);
    std::fill_n(fx.right[n], frames, 0.0f);
  }
}

// Both programs' buses over copies of the same inputs, the old one's share falling
// linearly to 0 as busFadeFrames runs out.
void Engine::Impl::crossfadeBuses(int part, int frames, bool cut) noexcept SPINDLE_REALTIME {
  Part& p = parts[static_cast<size_t>(part)];
  std::copy_n(partLeft.begin(), frames, fadeLeft.begin());
  std::copy_n(partRight.begin(), frames, fadeRight.begin());
  fadeInputs.fed = fxInputs.fed;
  for (size_t n = 0; n < fxInputs.fed.size(); ++n) {
    if (!fxInputs.fed[n]) continue;
    std::copy_n(fxInputs.left[n], frames, fadeInputs.left[n]);
    std::copy_n(fxInputs.right[n], frames, fadeInputs.right[n]);
  }
  mixBuses(p.program, part, partLeft.data(), partRight.data(), fxInputs, frames, cut);
  mixBuses(p.busFadeFrom, part, fadeLeft.data(), fadeRight.data(), fadeInputs, frames, cut);
  const auto total = static_cast<float>(std::max(1.0, kBusFadeSeconds * config.sampleRate));
  for (int i = 0; i < frames; ++i) {
    const float old = static_cast<float>(std::max(p.busFadeFrames - i, 0)) / total;
    partLeft[static_cast<size_t>(i)] += old * (fadeLeft[static_cast<size_t>(i)] - partLeft[static_cast<size_t>(i)]);
    partRight[static_cast<size_t>(i)] += old * (fadeRight[static_cast<size_t>(i)] - partRight[static_cast<size_t>(i)]);
  }
  p.busFadeFrames -= frames;
  if (p.busFadeFrames <= 0) endBusFade(part);
}

void Engine::Impl::startBusFade(int part, const Program* from, const Program* to) noexcept SPINDLE_REALTIME {
  endBusFade(part);
  const bool buses = (from && from->buses) || (to && to->buses);
  if (!from || !buses) return;
  Part& p = parts[static_cast<size_t>(part)];
  p.busFadeFrom = from;
  p.busFadeFrames = static_cast<int>(std::lround(kBusFadeSeconds * config.sampleRate));
}

void Engine::Impl::endBusFade(int part) noexcept SPINDLE_REALTIME {
  Part& p = parts[static_cast<size_t>(part)];
  const Program* from = std::exchange(p.busFadeFrom, nullptr);
  p.busFadeFrames = 0;
  if (from) letGo(from);
}

}  // namespace spindle::engine
