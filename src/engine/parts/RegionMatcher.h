#pragma once
// Region selection: which regions of a part's Program a note event starts.
// Audio thread only; pure reads of the Part and Program.
//
// A region plays when every input control holds for the event: key and velocity
// ranges, channel, the part's current pitch bend and CC values (locc/hicc), the note's
// random number (lorand <= r < hirand, hirand = 1 includes 1), its round-robin turn,
// its keyswitch conditions and its trigger.
//
// Controller-started regions (on_locc/on_hicc, on_lohdcc/on_hihdcc): a controller
// move starts them when the value crosses into the range (outside before, inside now),
// so a pedal sending 0 twice starts its pedal-up noise once. They never start on notes.
//
// Controllers: locc/hicc and lohdcc/hihdcc compare the part's controller values (0..1,
// set_cc defaults included); lochanaft/hichanaft the channel aftertouch, lopolyaft/
// hipolyaft the key's polyphonic aftertouch, lobpm/hibpm the engine's tempo.
// sw_vel=previous checks (and plays) the previous note-on's velocity.
// loprog/hiprog compare the part's last MIDI program change number (0 before any);
// lotimer/hitimer the seconds from the part's previous note-on to this event (a note-on
// compares with the one before it; "forever" before the first, so hitimer fails then).
//
// Round robin (seq_length / seq_position), ARIA-like: one counter per part and key.
// Every note-on of a key takes the counter's value as its sequence number s and then
// advances it; a region plays on its turn, (s % seq_length) + 1 == seq_position.
// So the regions stacked on one key (A B C with seq_position 1 2 3) alternate A B C A
// B C, whatever the velocity layer. Release triggers reuse their note-on's number.
//
// Keyswitches: pressing a key that Program::isKeyswitch marks sets the part's sw_last
// state (before matching, so a region mapped on the keyswitch key may sound), which
// sw_last must equal and sw_lolast..sw_hilast must hold; sw_down needs the key held, sw_up needs it up, sw_previous compares with the note
// played before this one. A keyswitch key with no region mapped on it is silent.
#include <cstdint>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/parts/Part.h"

namespace spindle::engine {

struct NoteContext {
  int channel = 0;  // 0-based
  int key = 0;
  int velocity = 0;     // note-on velocity, also for release triggers
  float random = 0.0f;  // one draw per event, shared by all its regions
  uint32_t sequence = 0;
  int otherKeysHeld = 0;  // keys held besides this one when it went down
  bool release = false;   // note-off: release triggers only
  // Which release triggers a release event starts: keyReleases, trigger=release_key (at
  // the note-off, pedal or not); pedalReleases, trigger=release (at the note-off with
  // the sustain pedal up, or at the pedal's release for a note released under it).
  bool keyReleases = true, pedalReleases = true;
  int previousVelocity = 0;  // the note-on before this one (sw_vel=previous)
  float tempo = 120.0f;      // beats per minute (lobpm/hibpm)
  double sinceNoteOn = 1e30;  // seconds since the part's previous note-on (lotimer/hitimer)
  // Started by a controller (on_locc/on_hicc): key and velocity ranges do not apply
  // (key is the region's own, velocity 127).
  bool ccTrigger = false;
  // An MPE note's controllers (its expression slot's, Expression.h): its conditions on
  // controllers and channel aftertouch read these; null: the part's.
  const mod::ControllerState* controllers = nullptr;
  int expression = -1;  // the note's expression slot (VoiceStart::expression)
  int ownBend = 0;      // an MPE note's own pitch bend, -8192..8191: lobend/hibend read it
  int bend(const Part& part) const noexcept SPINDLE_REALTIME;  // what lobend/hibend compare
};

class RegionMatcher {
 public:
  static constexpr int kMaxRegionsPerEvent = 64;

  // Writes the regions to start to out[0..], at most `capacity`; returns their count.
  static int select(const Part& part, const NoteContext& note, const Region** out, int capacity) noexcept
      SPINDLE_REALTIME;
  // The regions a controller move starts: their on_locc/on_hicc range of `cc` holds
  // the part's new value and did not hold `before` (the value before the move), and
  // their other conditions hold. note: ccTrigger set, velocity 127.
  static int selectByController(const Part& part, const NoteContext& note, int cc, float before,
                                const Region** out, int capacity) noexcept SPINDLE_REALTIME;
  // The key a controller-started region plays: pitch_keycenter, moved into lokey..hikey
  // when the region names a key range.
  static int triggerKey(const Region& r) noexcept SPINDLE_REALTIME;
  static bool conditionsHold(const Region& r, const Part& part, const NoteContext& note) noexcept SPINDLE_REALTIME;
  // The sample table entry a voice of `r` starting now plays: Region::reverseSampleIndex
  // while every reverse_loccN..hiccN range holds the part's controller value, else
  // Region::sampleIndex (already the reversed entry for direction=reverse).
  static int32_t sampleIndex(const Region& r, const Part& part) noexcept SPINDLE_REALTIME;

 private:
  static bool triggerHolds(const Region& r, const NoteContext& note) noexcept SPINDLE_REALTIME;
  static bool keyswitchHolds(const Region& r, const Part& part) noexcept SPINDLE_REALTIME;
  static bool controllersHold(const Region& r, const Part& part, const NoteContext& note) noexcept SPINDLE_REALTIME;
};

}  // namespace spindle::engine
