#pragma once
// Events: a CLAP note event or MIDI event as the MIDI bytes the plugin core plays. A
// CLAP note and the same note in MIDI are one message, so both dialects render the same.
//
//   NOTE_ON  (channel, key, velocity 0..1)  -> note-on, velocity round(127 v), at least 1
//   NOTE_OFF (channel, key, velocity)       -> note-off; key -1 (every key): CC 123
//   NOTE_CHOKE (channel, key)               -> note-off; key -1: CC 120 (all sound off)
//   a wildcard channel (-1)                 -> channel 1
//
// Real-time: plain arithmetic on the event, no allocation.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include <clap/events.h>

#include "core/MidiEvent.h"
#include "core/Realtime.h"

namespace spindle::clap {

struct MidiBytes {
  std::array<uint8_t, 3> bytes{};
  uint32_t size = 0;  // 0: nothing to play
};

inline uint8_t midiVelocity(double velocity, uint8_t least) noexcept SPINDLE_REALTIME {
  const double clamped = std::isfinite(velocity) ? std::clamp(velocity, 0.0, 1.0) : 0.0;
  return static_cast<uint8_t>(std::max<long>(least, std::lround(clamped * 127.0)));
}

inline MidiBytes noteMessage(uint16_t type, const clap_event_note_t& note) noexcept SPINDLE_REALTIME {
  const auto channel = static_cast<uint8_t>(note.channel >= 0 && note.channel < 16 ? note.channel : 0);
  const bool everyKey = note.key < 0 || note.key > 127;
  const auto key = static_cast<uint8_t>(everyKey ? 0 : note.key);
  switch (type) {
    case CLAP_EVENT_NOTE_ON:
      if (everyKey) return {};
      return {{static_cast<uint8_t>(midi::kNoteOn | channel), key, midiVelocity(note.velocity, 1)}, 3};
    case CLAP_EVENT_NOTE_OFF:
      if (everyKey) return {{static_cast<uint8_t>(midi::kControlChange | channel), midi::kCcAllNotesOff, 0}, 3};
      return {{static_cast<uint8_t>(midi::kNoteOff | channel), key, midiVelocity(note.velocity, 0)}, 3};
    case CLAP_EVENT_NOTE_CHOKE:
      if (everyKey) return {{static_cast<uint8_t>(midi::kControlChange | channel), midi::kCcAllSoundOff, 0}, 3};
      return {{static_cast<uint8_t>(midi::kNoteOff | channel), key, 0}, 3};
    default:
      return {};
  }
}

// The MPE Configuration Message (RPN 6 on channel 1) for a lower zone of 15 members,
// which MIDI-MPE input gets before its first message.
inline constexpr std::array<std::array<uint8_t, 3>, 3> kLowerZoneOf15{
    {{midi::kControlChange, midi::kCcRpnMsb, 0}, {midi::kControlChange, midi::kCcRpnLsb, 6},
     {midi::kControlChange, midi::kCcDataEntry, 15}}};

// The length of the MIDI 1.0 message a status byte starts (CLAP_EVENT_MIDI carries three
// bytes whatever the message): a channel message, or a one-byte clock message; 0 for
// what the core does not play (data bytes, system common; SysEx is CLAP_EVENT_MIDI_SYSEX).
inline uint32_t midiMessageSize(uint8_t status) noexcept SPINDLE_REALTIME {
  if (status >= 0xF8) return 1;
  if (status < 0x80 || status >= 0xF0) return 0;
  const int type = status & 0xF0;
  return type == midi::kProgramChange || type == midi::kChannelPressure ? 2 : 3;
}

}  // namespace spindle::clap
