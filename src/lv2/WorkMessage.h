#pragma once
// WorkMessage: what run() hands the host's worker (LV2_Worker_Schedule) and what the
// worker hands back (work_response). The host copies the bytes: a header, then the
// path's bytes (NUL included) when there is one; a kWorkLoaded response then carries the
// instrument's ControlMap. Trivially copyable, no pointers.
#include <array>
#include <cstdint>
#include <type_traits>

namespace spindle::lv2 {

enum WorkKind : uint32_t {
  kWorkLoad = 1,     // load the path and play it on every part
  kWorkLevel = 2,    // part 0's level: value in dB
  kWorkCollect = 3,  // free the Programs the engine handed back
  kWorkLoaded = 4,   // response: the path now playing
};

struct WorkHeader {
  uint32_t kind = 0;
  float value = 0.0f;
  uint32_t pathBytes = 0;  // bytes following the header, the NUL included
};
static_assert(std::is_trivially_copyable_v<WorkHeader>);

inline constexpr int kControlPorts = 32;       // the plugin's "Control N" input ports
inline constexpr uint32_t kLabelBytes = 1024;  // the labels the notify port names, NULs included

// The labelled controls of an instrument (label_cc, DecentSampler's <ui> controls), in
// the instrument's order, as the control ports play them: port n sends MIDI CC cc[n]
// (-1: the port controls nothing). labels: the first `count` labels, each NUL-ended.
struct ControlMap {
  std::array<int16_t, kControlPorts> cc{};
  uint32_t count = 0;
  uint32_t labelBytes = 0;
  std::array<char, kLabelBytes> labels{};
};
static_assert(std::is_trivially_copyable_v<ControlMap>);

}  // namespace spindle::lv2
