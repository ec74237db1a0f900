#pragma once
// Region selection: which regions of a part's Program a note event starts.
// Audio thread only; pure reads of the Part and Program.
//
// A region plays when every input control holds for the event: key and velocity
// ranges, channel, the part's current pitch bend and CC values (locc/hicc), the note's
// random number (lorand <= r < hirand, hirand = 1 includes 1), its round-robin turn,
// its keyswitch conditions and its trigger.
//
// Round robin (seq_length / seq_position), ARIA-like: one counter per part and key.
// Every note-on of a key takes the counter's value as its sequence number s and then
// advances it; a region plays on its turn, (s % seq_length) + 1 == seq_position.
// So the regions stacked on one key (A B C with seq_position 1 2 3) alternate A B C A
// B C, whatever the velocity layer. Release triggers reuse their note-on's number.
//
// Keyswitches: pressing a key that Program::isKeyswitch marks sets the part's sw_last
// state (before matching, so a region mapped on the keyswitch key may sound);
// sw_down needs the key held, sw_up needs it up, sw_previous compares with the note
// played before this one. A keyswitch key with no region mapped on it is silent.
#include <cstdint>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/Part.h"

namespace spindle::engine {

struct NoteContext {
  int channel = 0;  // 0-based
  int key = 0;
  int velocity = 0;     // note-on velocity, also for release triggers
  float random = 0.0f;  // one draw per event, shared by all its regions
  uint32_t sequence = 0;
  int otherKeysHeld = 0;  // keys held besides this one when it went down
  bool release = false;   // note-off: release triggers only
};

class RegionMatcher {
 public:
  static constexpr int kMaxRegionsPerEvent = 64;

  // Writes the regions to start to out[0..], at most `capacity`; returns their count.
  static int select(const Part& part, const NoteContext& note, const Region** out, int capacity) noexcept
      SPINDLE_REALTIME;
  static bool conditionsHold(const Region& r, const Part& part, const NoteContext& note) noexcept SPINDLE_REALTIME;

 private:
  static bool triggerHolds(const Region& r, const NoteContext& note) noexcept SPINDLE_REALTIME;
  static bool keyswitchHolds(const Region& r, const Part& part) noexcept SPINDLE_REALTIME;
};

}  // namespace spindle::engine
