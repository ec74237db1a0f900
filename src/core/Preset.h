#pragma once
// A SoundFont preset, as the loader hands it to the engine: the MIDI bank (0..128, 128 =
// percussion) and program that select it. Regions whose Region::preset is its index
// play while a part's bank select and program change choose it.
#include <cstdint>
#include <string>

namespace spindle {

struct Preset {
  uint16_t bank = 0, program = 0;
  std::string name;
};

}  // namespace spindle
