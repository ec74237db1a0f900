#pragma once
// BusMemory: how much memory a bus effect with delay lines needs, worked out on the
// loader thread from the values its opcodes and controls can reach.
//
// A Program is built before it knows the engine's sample rate, so lines are sized for
// kBusMemoryRate; at a higher rate the longest times are clamped to what the lines hold.
#include <algorithm>

#include "core/BusEffects.h"
#include "core/Realtime.h"

namespace spindle::engine {

inline constexpr double kBusMemoryRate = 96000.0;

// The largest value `param` reaches: its value plus every positive controller depth
// (controllers run 0..1) or the top of its curve, then what its LFOs can make of it,
// at least 0.
inline float busParamMax(const BusEffect& effect, BusParam param) noexcept {
  const auto peak = [](const std::vector<float>& curve) {
    return curve.empty() ? 0.0f : std::max(0.0f, *std::max_element(curve.begin(), curve.end()));
  };
  float top = effect.values[static_cast<size_t>(param)];
  for (const BusParamCc& c : effect.controllers)
    if (c.param == param) top += std::max(0.0f, c.depth);
  for (const BusParamCurve& c : effect.curves)
    if (c.param == param) top += peak(c.points);
  for (const BusParamLfo& l : effect.lfos) {
    if (l.param != param) continue;
    if (l.behavior == BusParamLfo::Behavior::Add) top += peak(l.curve);
    if (l.behavior == BusParamLfo::Behavior::Multiply) top *= peak(l.curve);
    if (l.behavior == BusParamLfo::Behavior::Set) top = std::max(top, peak(l.curve));
  }
  return std::max(0.0f, top);
}

}  // namespace spindle::engine
