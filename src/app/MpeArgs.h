#pragma once
// --mpe ZONES, for spindle and spindle-render: MPE zones set by hand (engine/parts/
// Expression.h), as an MPE Configuration Message would set them:
//   lower          the lower zone with 15 member channels (master channel 1)
//   upper          the upper zone with 15 (master channel 16)
//   lower=N        N member channels (1..15); upper=N likewise
//   lower=N,upper=M both, N + M at most 14
//   off            no zone (the default: channels are parts 1..16)
#include <optional>
#include <string>

namespace spindle::app {

struct MpeZones {
  int lower = 0, upper = 0;  // member channels; 0: off
  bool operator==(const MpeZones&) const = default;
};

inline constexpr const char* kMpeForms = "lower, upper, lower=N, upper=N, lower=N,upper=M (N + M <= 14) or off";

// The zones `text` names, or nullopt when it is not one of kMpeForms.
std::optional<MpeZones> parseMpeArg(const std::string& text);

}  // namespace spindle::app
