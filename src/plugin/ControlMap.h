#pragma once
// ControlMap: the labelled controls of an instrument (label_cc, DecentSampler's <ui>
// controls), in the instrument's order, as a plugin's controls play them: control n
// sends MIDI CC cc[n] (-1: it controls nothing); initial[n] is the value (0..127) the
// part holds for that CC when the instrument loads (its set_ccN, else the engine's reset
// value). labels: the first `count` labels, each NUL-ended. Trivially copyable, no
// pointers: an adapter may copy it through its host (the LV2 worker's response carries it).
#include <array>
#include <cstdint>
#include <type_traits>

namespace spindle::plugin {

inline constexpr int kControlPorts = 32;       // the plugin's "Control N" inputs
inline constexpr uint32_t kLabelBytes = 1024;  // the labels a plugin announces, NULs included

struct ControlMap {
  std::array<int16_t, kControlPorts> cc{};
  std::array<float, kControlPorts> initial{};
  uint32_t count = 0;
  uint32_t labelBytes = 0;
  std::array<char, kLabelBytes> labels{};
};
static_assert(std::is_trivially_copyable_v<ControlMap>);

}  // namespace spindle::plugin
