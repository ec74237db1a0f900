#pragma once
// A part's effect lines in a session file: its sends to the shared reverb and chorus
// (CC91 and CC93 on its channel, 0..127) and the instrument effects the player
// bypassed, numbered from 1 in the instrument's file order as OSC numbers them:
//
//   [part 1]
//   reverb-send = 40
//   chorus-send = 0
//   bypass = 1 3          (only when some effect is bypassed)
//
// The flags are applied once the part's instrument has loaded (ControlCore).
// Thread: any.
#include <cstdint>
#include <string>

namespace spindle::control {

// "1 3" for effects 0 and 2; empty for none.
std::string formatBypassList(uint64_t mask);
// Numbers 1..kBypassableEffects separated by spaces or commas; false when one is not.
bool parseBypassList(const std::string& text, uint64_t& mask);

}  // namespace spindle::control
