#pragma once
// KeyMap: what the on-screen keyboard paints for one loaded instrument: the keys its
// regions play and its keyswitches. Computed once on the gui thread from a Program
// that is immutable from the moment it is loaded (reading it is safe on any thread).
#include <array>
#include <string>

#include "engine/parts/Program.h"

namespace spindle::gui {

struct KeyMap {
  std::array<bool, 128> playable{};   // some attack-triggered region covers the key
  std::array<bool, 128> keyswitch{};  // pressing the key selects articulations (sw_last...)
  int defaultKeyswitch = -1;
  std::array<std::string, 128> names{};  // label_key and sw_label names; empty: none

  bool empty() const noexcept {
    for (bool b : playable)
      if (b) return false;
    return true;
  }
};

inline KeyMap keyMapOf(const engine::Program& program) {
  KeyMap map;
  for (const Region& r : program.regions) {
    // A release region sounds on key-up of a key some other region plays.
    if (r.trigger == Trigger::Release || r.trigger == Trigger::ReleaseKey) continue;
    for (int key = r.lokey; key <= r.hikey && key < 128; ++key) map.playable[static_cast<std::size_t>(key)] = true;
  }
  map.keyswitch = program.isKeyswitch;
  for (std::size_t key = 0; key < 128; ++key)
    if (map.keyswitch[key]) map.playable[key] = false;
  map.defaultKeyswitch = program.defaultKeyswitch;
  for (const controllers::KeyLabel& label : program.keyLabels)
    if (label.key >= 0 && label.key < 128) map.names[static_cast<std::size_t>(label.key)] = label.label;
  return map;
}

}  // namespace spindle::gui
