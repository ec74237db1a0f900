#pragma once
// Per-note expression: MPE 1.0's zones (MIDI Polyphonic Expression, RP-053) and the
// state of one note's own bend, pressure and timbre. Audio thread only (members of the
// Engine), except MpeLayout, a plain value the control side also builds.
//
//   lower zone   master channel 1 (index 0), members 2 .. 1 + n
//   upper zone   master channel 16 (index 15), members 15 - n + 1 .. 15 (1-based)
//
// A zone plays its master channel's part: a note on a member channel starts the
// master's regions, and its member channel is the note's expression slot. The slot's
// controllers are the zone's (the master part's) but for the note's own: its pitch
// bend (slot 128), channel pressure (129), CC74 (timbre) and the note slots 130..141
// the note-on wrote (velocity, key, random...). Every reader of controllers (the
// modulation room, locc/hicc and lochanaft conditions) reads a member note's slot
// instead of the part's, so per-note expression reaches every format by one path.
#include <array>

#include "core/Controllers.h"
#include "core/Realtime.h"
#include "engine/mod/ControllerState.h"

namespace spindle::engine {

class MpeLayout {
 public:
  static constexpr int kChannels = 16;
  static constexpr float kMemberRange = 4800.0f;  // cents: the member channels' default (48 semitones)
  static constexpr float kMasterRange = 200.0f;   // cents: the master channel's default (2 semitones)

  // The MPE Configuration Message (RPN 6 on a zone's master channel): the zone gets
  // `members` member channels (0 switches it off, at most 15); a zone it now overlaps
  // shrinks to fit beside it, or goes off. The zone's member bend range starts at 48
  // semitones again.
  void configure(bool upper, int members) noexcept SPINDLE_REALTIME;
  int members(bool upper) const noexcept { return upper ? upper_ : lower_; }
  bool active() const noexcept { return lower_ > 0 || upper_ > 0; }
  // The master channel (0-based) of the zone `channel` is a member of; -1 when none.
  int masterOf(int channel) const noexcept SPINDLE_REALTIME;
  bool isMaster(int channel) const noexcept SPINDLE_REALTIME {
    return (channel == 0 && lower_ > 0) || (channel == kChannels - 1 && upper_ > 0);
  }
  // The member channels of the zone whose master is `master`: [first, last], empty when first > last.
  int firstMember(int master) const noexcept { return master == 0 ? 1 : kChannels - 1 - upper_; }
  int lastMember(int master) const noexcept { return master == 0 ? lower_ : kChannels - 2; }
  // The per-note bend range of the zone (RPN 0 on any member channel sets it for all), in cents.
  float memberRange(int master) const noexcept { return master == 0 ? lowerRange_ : upperRange_; }
  void setMemberRange(int master, float cents) noexcept SPINDLE_REALTIME {
    (master == 0 ? lowerRange_ : upperRange_) = cents;
  }

 private:
  int lower_ = 0, upper_ = 0;
  float lowerRange_ = kMemberRange, upperRange_ = kMemberRange;
};

// One member channel's note expression (MPE: the channel is the note's identity).
struct NoteExpression {
  static constexpr int kTimbreCc = 74;
  mod::ControllerState controllers;  // the zone's, with this note's own slots
  int bend = 0;                      // -8192..8191, this note's own
  int rpn = 0x3FFF;                  // the member channel's RPN (RPN 0 sets the zone's range)
  std::array<bool, 128> keysDown{};  // keys held on this channel

  // The zone's controllers from now on, keeping this note's own slots.
  void follow(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME;
  // A note-on on this channel: the note slots the engine wrote into the zone's
  // controllers (velocity, key, random...) become this note's.
  void takeNoteSlots(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME;
  void setBend(int value) noexcept SPINDLE_REALTIME;
  // The note's own bend in cents, `range` cents at full bend either way.
  float bendCents(float range) const noexcept {
    return static_cast<float>(bend) / (bend < 0 ? 8192.0f : 8191.0f) * range;
  }
  // Back to no expression (the zone was configured again): centred bend, no pressure, CC74 0.
  void reset(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME;

 private:
  static constexpr int kOwnFirst = controllers::kPitchBend, kOwnLast = controllers::kKeyDeltaAbsolute;
};

}  // namespace spindle::engine
