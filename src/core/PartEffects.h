#pragma once
// PartEffects: a part's instrument effects as the player sees them (OSC's
// /spindle/part/effects, the window's effects tab, the session file): each effect of
// the loaded instrument's bus layout (core/BusEffects.h) in file order, with its type,
// its bus and whether the player bypassed it.
//
// The player's bypass is a flag per part and effect, bit i of a 64-bit mask for effect
// i: effects past the 64th cannot be bypassed. The audio thread keeps the mask
// (engine Part::effectBypass, CommandType::SetPartEffectBypass) and clears it when the
// part switches instruments; these functions run on the control, loader and gui
// threads, never on the audio thread.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/BusEffects.h"

namespace spindle {

inline constexpr int kBypassableEffects = 64;

struct PartEffectInfo {
  int index = 0;          // in file order, 0-based
  std::string type;       // the type's name: gain, eq, filter, ... (SFZ's, else DecentSampler's)
  int bus = 0;            // 0 main, 1..4 fx1..fx4
  bool bypassed = false;  // by the player (not by a bypass_onccN controller)

  bool operator==(const PartEffectInfo&) const = default;
};

inline std::string_view busEffectTypeName(BusEffectType type) noexcept {
  switch (type) {
    case BusEffectType::Gain: return "gain";
    case BusEffectType::Eq: return "eq";
    case BusEffectType::Filter: return "filter";
    case BusEffectType::Rectify: return "rectify";
    case BusEffectType::Width: return "width";
    case BusEffectType::Apan: return "apan";
    case BusEffectType::Delay: return "delay";
    case BusEffectType::Phaser: return "phaser";
    case BusEffectType::Reverb: return "reverb";
    case BusEffectType::Lofi: return "lofi";
    case BusEffectType::Disto: return "disto";
    case BusEffectType::Comp: return "comp";
    case BusEffectType::Gate: return "gate";
    case BusEffectType::Limiter: return "limiter";
    case BusEffectType::Convolution: return "convolution";
    case BusEffectType::Chorus: return "chorus";
    case BusEffectType::WaveFolder: return "wave_folder";
    case BusEffectType::WaveShaper: return "wave_shaper";
    case BusEffectType::ModPhaser: return "phaser";
    default: return "effect";
  }
}

// "main", "fx1" .. "fx4".
inline std::string busName(int bus) { return bus <= 0 ? "main" : "fx" + std::to_string(bus); }

inline bool effectBypassed(uint64_t mask, int index) noexcept {
  return index >= 0 && index < kBypassableEffects && ((mask >> index) & 1U) != 0;
}

inline uint64_t withEffectBypass(uint64_t mask, int index, bool on) noexcept {
  if (index < 0 || index >= kBypassableEffects) return mask;
  const uint64_t bit = uint64_t{1} << index;
  return on ? mask | bit : mask & ~bit;
}

// The layout's effects with the player's bypass flags.
inline std::vector<PartEffectInfo> partEffects(const BusLayout& layout, uint64_t bypassMask) {
  std::vector<PartEffectInfo> list;
  list.reserve(layout.effects.size());
  for (size_t i = 0; i < layout.effects.size(); ++i) {
    const BusEffect& e = layout.effects[i];
    const int index = static_cast<int>(i);
    list.push_back({index, std::string(busEffectTypeName(e.type)), e.bus, effectBypassed(bypassMask, index)});
  }
  return list;
}

}  // namespace spindle
