// fuzz_midi_bytes: the raw MIDI byte parser (a device node, a named pipe) on arbitrary
// bytes. Every message it completes is a channel message with 7-bit data or one of the
// MIDI clock's one-byte messages (data 0), and every byte is accounted for.
#include <cstddef>
#include <cstdint>

#include "core/MidiEvent.h"
#include "io/MidiByteParser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  spindle::io::MidiByteParser parser;
  uint64_t completed = 0, clocks = 0;
  for (std::size_t i = 0; i < size; ++i) {
    spindle::MidiEvent event;
    if (!parser.feed(data[i], event)) continue;
    if (spindle::midi::isClockMessage(event.status)) {
      if (event.status != data[i] || event.data1 != 0 || event.data2 != 0) __builtin_trap();
      ++clocks;
      continue;
    }
    ++completed;
    if (event.status < 0x80 || event.status >= 0xF0 || event.data1 > 0x7F || event.data2 > 0x7F) __builtin_trap();
  }
  const auto& counters = parser.counters();
  if (counters.messages != completed || clocks > counters.realtime) __builtin_trap();
  if (counters.messages + counters.realtime + counters.sysex + counters.dropped > size) __builtin_trap();
  return 0;
}
