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
//
// Note slots (kNoteSlots after the 16 member channels' slots) are the same slots claimed
// by a note rather than a channel: a plugin host's note (CLAP note expressions) takes
// one at its first expression (EngineNoteSlots.cpp). Its bend is a member note's with
// the default 48-semitone range, its pressure and CC74 a member note's; it may also own
// its CC1 and CC11 and a gain and pan of its own, and offsets of its own on any MIDI CC
// (a plugin host's polyphonic modulation): the CC's value, the part's or the note's own,
// plus the offset, clamped to 0..1, as the part's value moves.
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

inline constexpr int kNoteSlots = 16;
inline constexpr int kExpressionSlots = MpeLayout::kChannels + kNoteSlots;

// One member channel's note expression (MPE: the channel is the note's identity), or a
// note slot's (the note that claimed it is its identity).
struct NoteExpression {
  static constexpr int kTimbreCc = 74;
  mod::ControllerState controllers;  // the zone's, with this note's own slots
  int bend = 0;                      // -8192..8191, this note's own
  int rpn = 0x3FFF;                  // the member channel's RPN (RPN 0 sets the zone's range)
  std::array<bool, 128> keysDown{};  // keys held on this channel
  // Note slots only: the part of the note that claimed it (-1: none), its own gain
  // (linear) and pan (-1..1, added to the part's), and whether it owns CC1 and CC11.
  int part = -1;
  float gain = 1.0f, pan = 0.0f;
  bool ownsModWheel = false, ownsExpression = false;
  // Note slots only: per MIDI CC, the offset this note adds (0..1 units; 0: none), and a
  // modulated CC's value before its offset. For a CC with an offset,
  // controllers.value(cc) == clamp(ccBase[cc] + ccOffset[cc], 0, 1).
  std::array<float, 128> ccOffset{};
  std::array<float, 128> ccBase{};

  // The zone's controllers from now on, keeping this note's own slots.
  void follow(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME;
  // A note-on on this channel: the note slots the engine wrote into the zone's
  // controllers (velocity, key, random...) become this note's.
  void takeNoteSlots(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME;
  void setBend(int value) noexcept SPINDLE_REALTIME;
  // The note's offset on MIDI CC `cc` (0..127) from now on, in 0..1 units (-1..1).
  void modulate(int cc, float offset) noexcept SPINDLE_REALTIME;
  // A CC value the note owns (its CC1, CC11, CC74), its offset added.
  void setOwn(int cc, float value) noexcept SPINDLE_REALTIME;
  // The note's own bend in cents, `range` cents at full bend either way.
  float bendCents(float range) const noexcept {
    return static_cast<float>(bend) / (bend < 0 ? 8192.0f : 8191.0f) * range;
  }
  // Back to no expression (the zone was configured again): centred bend, no pressure, CC74 0.
  void reset(const mod::ControllerState& zone) noexcept SPINDLE_REALTIME;
  // A note slot claimed by a note of `part` holding `key`: the part's controllers as
  // they are (the note goes on sounding as it did), a centred bend, unity gain and pan,
  // no CC offsets (a freed slot's never reach the next note).
  void claim(int partIndex, const mod::ControllerState& partControllers, int key, bool down) noexcept
      SPINDLE_REALTIME;

 private:
  static constexpr int kOwnFirst = controllers::kPitchBend, kOwnLast = controllers::kKeyDeltaAbsolute;
  // CC `cc`'s value before this note's offset.
  float unmodulated(int cc) const noexcept SPINDLE_REALTIME {
    const auto c = static_cast<size_t>(cc);
    return ccOffset[c] != 0.0f ? ccBase[c] : controllers.value(cc);
  }
  // Each CC with an offset: its value now (unmodulated) becomes its base, plus the offset.
  void applyOffsets() noexcept SPINDLE_REALTIME;
};

}  // namespace spindle::engine
