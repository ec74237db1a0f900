#pragma once
// MidiByteParser: raw MIDI bytes (a device node, a named pipe) in, complete channel
// messages out, one byte at a time.
//
//   - running status: data bytes after a channel message reuse its status byte;
//   - realtime bytes (0xF8..0xFF) may appear anywhere, even inside a message or a
//     sysex, and change nothing there: they are counted; the MIDI clock's (timing clock,
//     start, continue, stop: midi::isClockMessage) come out at once as one-byte events
//     (data 0), the others are skipped;
//   - sysex (0xF0 .. 0xF7) is counted and produces no channel message; any status byte
//     ends it. One ended by 0xF7 and no longer than kMaxSysex is kept for sysexDone()
//     (the midi thread decodes MIDI Tuning Standard messages from it, core/MidiTuning.h);
//   - system common messages (0xF1..0xF6) are skipped with their data bytes and
//     cancel running status, as the MIDI 1.0 specification says;
//   - stray data bytes with no status are counted as dropped.
//
// Thread: whichever thread owns it (the midi thread). No allocation.
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/MidiEvent.h"
#include "core/Realtime.h"

namespace spindle::io {

struct MidiParserCounters {
  uint64_t messages = 0;   // channel messages produced
  uint64_t realtime = 0;   // realtime bytes (the clock's passed on, the others skipped)
  uint64_t sysex = 0;      // complete or interrupted sysex messages skipped
  uint64_t dropped = 0;    // stray data bytes
};

class MidiByteParser {
 public:
  // Feeds one byte; true when it completed a channel message (or was a MIDI clock
  // message), written to `out`
  // (out.frame is left 0: the caller timestamps it).
  bool feed(uint8_t byte, MidiEvent& out) noexcept SPINDLE_REALTIME;
  const MidiParserCounters& counters() const noexcept { return counters_; }
  // After the feed() of its 0xF7: the whole sysex message (F0 .. F7); false otherwise
  // (the next feed() forgets it).
  bool sysexDone(const uint8_t*& bytes, std::size_t& size) const noexcept SPINDLE_REALTIME;

  static constexpr std::size_t kMaxSysex = 1024;  // an MTS single-note message for 127 keys is 517

 private:
  static int dataBytesOf(uint8_t status) noexcept SPINDLE_REALTIME;
  void startStatus(uint8_t status) noexcept SPINDLE_REALTIME;
  void keepSysex(uint8_t byte) noexcept SPINDLE_REALTIME;

  uint8_t status_ = 0;   // running status; 0 = none
  uint8_t data_[2] = {0, 0};
  int have_ = 0;         // data bytes collected for the current message
  int need_ = 0;         // data bytes the current status takes
  bool inSysex_ = false;
  bool sysexDone_ = false;
  std::size_t sysexSize_ = 0;  // bytes kept; past kMaxSysex the message is not kept
  std::array<uint8_t, kMaxSysex> sysex_{};
  MidiParserCounters counters_;
};

}  // namespace spindle::io
