#pragma once
// One MIDI channel message (or a MIDI clock message: midi::isClockMessage), timestamped
// by its frame inside the current block; or one
// key's (or pitch class's) tuning, decoded from a MIDI Tuning Standard SysEx message
// (core/MidiTuning.h), which carries its parts and its cents in the last two fields.
#include <cstdint>
#include <type_traits>

namespace spindle {

struct MidiEvent {
  uint32_t frame = 0;    // offset inside the block, 0 .. blockFrames-1
  uint8_t status = 0;    // status byte including the channel nibble
  uint8_t data1 = 0;
  uint8_t data2 = 0;
  uint16_t parts = 0;  // tuning events: bit p = part p
  float cents = 0.0f;  // tuning events: see midi::kTuneKey, midi::kTunePitchClass

  int channel() const noexcept { return status & 0x0F; }
  int type() const noexcept { return status & 0xF0; }
};
static_assert(std::is_trivially_copyable_v<MidiEvent>);

namespace midi {
inline constexpr uint8_t kNoteOff = 0x80;
inline constexpr uint8_t kNoteOn = 0x90;
inline constexpr uint8_t kPolyPressure = 0xA0;
inline constexpr uint8_t kControlChange = 0xB0;
inline constexpr uint8_t kProgramChange = 0xC0;
inline constexpr uint8_t kChannelPressure = 0xD0;
inline constexpr uint8_t kPitchBend = 0xE0;
// Tuning events (statuses no device sends inside a channel stream: undefined system
// common bytes, used only between the MTS decoder and the engine). data2 = 1: real-time,
// sounding notes of the key follow; 0: only notes started from the event on.
inline constexpr uint8_t kTuneKey = 0xF4;         // data1 = key; cents = its pitch above key 0
inline constexpr uint8_t kTunePitchClass = 0xF5;  // data1 = 0..11 (C..B); cents = offset from 12-TET
// Note slot events (a plugin's per-note expression, engine/parts/Expression.h), likewise
// only between an adapter and the engine: data1 = key, data2 = a NoteSlotAction,
// parts = part | slot << 8, cents = the value.
inline constexpr uint8_t kNoteSlot = 0xF9;
enum NoteSlotAction : uint8_t {
  kSlotClaim,     // the key's sounding voices of the part without a slot take the slot
  kSlotReserve,   // the slot is the note's, for a kSlotNoteOn to come (values may come first)
  kSlotNoteOn,    // cents = the velocity, 1..127: the note starts in its slot
  kSlotNoteOff,   // cents = the note-off velocity, 0..127
  kSlotTuning,    // cents = semitones, the note's own bend
  kSlotVolume,    // cents = linear gain, 0..4
  kSlotPan,       // cents = 0 (left) .. 1 (right)
  kSlotVibrato,   // cents = 0..1: the note's CC1
  kSlotExpression,  // cents = 0..1: the note's CC11
  kSlotBrightness,  // cents = 0..1: the note's CC74
  kSlotPressure,    // cents = 0..1: the note's channel pressure
  kSlotCcOffset,    // data1 = a MIDI CC (not the key), cents = the offset in CC values
                    // (-127..127) the note adds to that CC's value, now and as it moves
};
inline constexpr MidiEvent noteSlotEvent(uint32_t frame, int part, int slot, int key, NoteSlotAction action,
                                         float value) noexcept {
  return MidiEvent{frame, kNoteSlot, static_cast<uint8_t>(key & 0x7F), action,
                   static_cast<uint16_t>((part & 0x0F) | (slot & 0xFF) << 8), value};
}
// System realtime messages the engine takes (one byte, no channel): the MIDI clock.
inline constexpr uint8_t kClock = 0xF8;     // timing clock, 24 to the quarter note
inline constexpr uint8_t kStart = 0xFA;
inline constexpr uint8_t kContinue = 0xFB;
inline constexpr uint8_t kStop = 0xFC;
inline constexpr bool isClockMessage(uint8_t status) noexcept {
  return status == kClock || status == kStart || status == kContinue || status == kStop;
}

inline constexpr uint8_t kCcBankSelect = 0;
inline constexpr uint8_t kCcDataEntry = 6;
inline constexpr uint8_t kCcVolume = 7;
inline constexpr uint8_t kCcPan = 10;
inline constexpr uint8_t kCcExpression = 11;
inline constexpr uint8_t kCcDataEntryLsb = 38;
inline constexpr uint8_t kCcSustain = 64;
inline constexpr uint8_t kCcNrpnLsb = 98, kCcNrpnMsb = 99, kCcRpnLsb = 100, kCcRpnMsb = 101;
inline constexpr uint8_t kCcSostenuto = 66;
inline constexpr uint8_t kCcAllSoundOff = 120;
inline constexpr uint8_t kCcResetControllers = 121;
inline constexpr uint8_t kCcAllNotesOff = 123;
}  // namespace midi

}  // namespace spindle
