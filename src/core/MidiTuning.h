#pragma once
// The MIDI Tuning Standard's SysEx messages, decoded into tuning events
// (core/MidiEvent.h: midi::kTuneKey, midi::kTunePitchClass). Any thread, the audio
// thread included: no allocation, the caller gives the room.
//
//   single note, real-time:      F0 7F dd 08 02 tt ll [kk xx yy zz]*ll F7
//   single note with bank:       F0 7E|7F dd 08 07 bb tt ll [kk xx yy zz]*ll F7
//   scale/octave, 1 byte:        F0 7E|7F dd 08 08 ff gg hh [ss]*12 F7     (ss: 0x40 = 0, 1 cent steps)
//   scale/octave, 2 bytes:       F0 7E|7F dd 08 09 ff gg hh [ss tt]*12 F7  (0x2000 = 0, +-100 cents)
//
// kk is the key, xx the 12-TET semitone it plays, yy zz 1/16384ths of a semitone above
// it (7F 7F 7F: no change). ff gg hh is the channel mask (hh: channels 1-7, gg: 8-14,
// ff: 15-16). 7F (real-time) messages retune sounding notes; 7E ones the notes that
// start after them. Single-note messages have no channel: they tune every part. The
// device ID (dd), tuning bank (bb) and program (tt) are not kept: the message applies
// to the parts' one current tuning.
#include <cstddef>
#include <cstdint>

#include "core/MidiEvent.h"
#include "core/Realtime.h"

namespace spindle::mts {

inline constexpr int kMaxEvents = 127;  // a single-note message's most keys

namespace detail {
inline uint16_t channelMask(const uint8_t* m) noexcept SPINDLE_REALTIME {
  return static_cast<uint16_t>((m[2] & 0x7F) | ((m[1] & 0x7F) << 7) | ((m[0] & 0x03) << 14));
}

inline int singleNote(const uint8_t* b, size_t size, size_t at, bool realtime, uint32_t frame, MidiEvent* out,
                      int room) noexcept SPINDLE_REALTIME {
  if (at >= size) return 0;
  const int count = b[at++] & 0x7F;
  int n = 0;
  for (int i = 0; i < count && at + 4 <= size && n < room; ++i, at += 4) {
    const uint8_t key = b[at] & 0x7F, xx = b[at + 1] & 0x7F, yy = b[at + 2] & 0x7F, zz = b[at + 3] & 0x7F;
    if (xx == 0x7F && yy == 0x7F && zz == 0x7F) continue;
    MidiEvent& e = out[n++];
    e = MidiEvent{frame, midi::kTuneKey, key, static_cast<uint8_t>(realtime ? 1 : 0), 0xFFFF, 0.0f};
    e.cents = static_cast<float>(100.0 * xx + 100.0 * ((yy << 7) | zz) / 16384.0);
  }
  return n;
}

inline int scaleOctave(const uint8_t* b, size_t size, size_t at, bool twoBytes, bool realtime, uint32_t frame,
                       MidiEvent* out, int room) noexcept SPINDLE_REALTIME {
  const size_t width = twoBytes ? 2 : 1;
  if (at + 3 + 12 * width > size || room < 12) return 0;
  const uint16_t parts = channelMask(b + at);
  at += 3;
  for (int pc = 0; pc < 12; ++pc, at += width) {
    const double cents = twoBytes ? (((b[at] & 0x7F) << 7 | (b[at + 1] & 0x7F)) - 8192) * 100.0 / 8192.0
                                  : static_cast<double>((b[at] & 0x7F) - 64);
    out[pc] = MidiEvent{frame, midi::kTunePitchClass, static_cast<uint8_t>(pc), static_cast<uint8_t>(realtime ? 1 : 0),
                        parts, static_cast<float>(cents)};
  }
  return 12;
}
}  // namespace detail

// The tuning events of one SysEx message (with or without its F0 and F7), all at
// `frame`, written to out (room for `room`; kMaxEvents is always enough). 0 for any
// other message or one cut short.
inline int decode(const uint8_t* bytes, size_t size, uint32_t frame, MidiEvent* out, int room) noexcept
    SPINDLE_REALTIME {
  size_t at = size > 0 && bytes[0] == 0xF0 ? 1 : 0;
  if (at + 4 > size || bytes[at + 2] != 0x08) return 0;
  const bool realtime = bytes[at] == 0x7F;
  if (!realtime && bytes[at] != 0x7E) return 0;
  const uint8_t form = bytes[at + 3];
  at += 4;
  if (form == 0x02 && realtime) return detail::singleNote(bytes, size, at + 1, true, frame, out, room);
  if (form == 0x07) return detail::singleNote(bytes, size, at + 2, realtime, frame, out, room);
  if (form == 0x08 || form == 0x09) return detail::scaleOctave(bytes, size, at, form == 0x09, realtime, frame, out, room);
  return 0;
}

}  // namespace spindle::mts
