#pragma once
// ControllerState: the 512 controller values of one part (MIDI channel), each a float
// 0..1. Audio thread only (a member of Part).
//
// MIDI CC n (0..127) writes slot n as value/127; the engine writes the extended slots
// (core/Controllers.h). Readers that need the 7-bit MIDI value (locc/hicc conditions,
// the part's CC7/CC10/CC11 mix) use midi7().
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "core/Controllers.h"
#include "core/Realtime.h"

namespace spindle::engine::mod {

class ControllerState {
 public:
  static constexpr int kCount = controllers::kCount;

  float value(int n) const noexcept SPINDLE_REALTIME { return inRange(n) ? values_[index(n)] : 0.0f; }
  // The value as a 7-bit MIDI number (0..127), rounded.
  int midi7(int n) const noexcept SPINDLE_REALTIME {
    return static_cast<int>(std::lround(static_cast<double>(value(n)) * 127.0));
  }
  void set(int n, float v) noexcept SPINDLE_REALTIME {
    if (inRange(n)) values_[index(n)] = std::clamp(v, 0.0f, 1.0f);
  }
  void setMidi7(int n, int v) noexcept SPINDLE_REALTIME { set(n, static_cast<float>(std::clamp(v, 0, 127)) / 127.0f); }
  void fill(float v) noexcept SPINDLE_REALTIME { values_.fill(v); }

 private:
  static bool inRange(int n) noexcept SPINDLE_REALTIME { return n >= 0 && n < kCount; }
  static size_t index(int n) noexcept SPINDLE_REALTIME { return static_cast<size_t>(n); }

  std::array<float, kCount> values_{};
};

}  // namespace spindle::engine::mod
