#pragma once
// KeyTuning: the pitch a part gives each of the 128 MIDI keys, in cents above MIDI
// note 0 in 12-TET (8.1758 Hz), and whether the key plays at all. A voice's pitch takes
// the key's position from here instead of the key number (engine/voices/VoicePitch.cpp), so
// pitch_keytrack, tune, transpose, bends and the region's keycenter apply as in 12-TET.
// Built on the loader, control or gui thread (instrument/Scala.h) or written key by key
// by MIDI Tuning Standard messages on the audio thread; trivially copyable, no pointers.
#include <array>
#include <cmath>
#include <type_traits>

#include "core/Realtime.h"

namespace spindle {

struct KeyTuning {
  static constexpr int kKeys = 128;

  std::array<double, kKeys> cents{};  // key k in 12-TET: 100 * k
  std::array<bool, kKeys> mapped{};   // false: the key starts no voice (a .kbm's 'x')
  // True while every key is where 12-TET puts it and mapped: the engine then uses the
  // key number itself, exactly as without a tuning.
  bool equal = true;

  static KeyTuning equalTemperament() noexcept {
    KeyTuning t;
    t.resetKeys();
    return t;
  }
  // Back to 12-TET, every key mapped.
  void resetKeys() noexcept SPINDLE_REALTIME {
    for (int k = 0; k < kKeys; ++k) {
      cents[static_cast<size_t>(k)] = 100.0 * k;
      mapped[static_cast<size_t>(k)] = true;
    }
    equal = true;
  }
  // The key's position in semitones (12-TET: the key number).
  double position(int key) const noexcept SPINDLE_REALTIME { return cents[static_cast<size_t>(key)] / 100.0; }
  bool plays(int key) const noexcept SPINDLE_REALTIME { return mapped[static_cast<size_t>(key)]; }
  // Sets one key (MTS); `equal` becomes false unless the key lands on 12-TET exactly.
  void setKey(int key, double keyCents, bool keyMapped = true) noexcept SPINDLE_REALTIME {
    cents[static_cast<size_t>(key)] = keyCents;
    mapped[static_cast<size_t>(key)] = keyMapped;
    if (keyCents != 100.0 * key || !keyMapped) equal = false;
  }
  // The key's frequency in Hz (A4 = key 69 at 440 Hz in 12-TET).
  double frequency(int key) const noexcept { return 440.0 * std::exp2((cents[static_cast<size_t>(key)] - 6900.0) / 1200.0); }
};
static_assert(std::is_trivially_copyable_v<KeyTuning>);

}  // namespace spindle
