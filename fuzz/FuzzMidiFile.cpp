// fuzz_midi_file: the Standard MIDI File reader on arbitrary bytes. Malformed input
// must raise MidiFileError (nothing else); a parsed song must be sorted by time with
// finite, non-negative times and channel messages only, one of the MIDI clock's
// one-byte messages (data 0) that a file carries in an F7 escape, or a tuning event
// decoded from MIDI Tuning Standard sysex (a key or pitch class, finite cents).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "core/MidiEvent.h"
#include "io/MidiFile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  try {
    const spindle::io::MidiSong song = spindle::io::parseMidiFile(data, size, "fuzz.mid");
    double previous = 0.0;
    for (const auto& event : song.events) {
      if (!std::isfinite(event.seconds) || event.seconds < previous) __builtin_trap();
      const bool clock = spindle::midi::isClockMessage(event.status);
      const bool tuneKey = event.status == spindle::midi::kTuneKey;
      const bool tuneClass = event.status == spindle::midi::kTunePitchClass;
      if (clock && (event.data1 != 0 || event.data2 != 0)) __builtin_trap();
      if ((tuneKey || tuneClass) && (event.data1 > (tuneKey ? 0x7F : 11) || !std::isfinite(event.cents)))
        __builtin_trap();
      if (!clock && !tuneKey && !tuneClass &&
          (event.status < 0x80 || event.status >= 0xF0 || event.data1 > 0x7F || event.data2 > 0x7F))
        __builtin_trap();
      previous = event.seconds;
      (void)spindle::io::secondsToFrames(event.seconds, 48000.0);
    }
    if (!std::isfinite(song.lengthSeconds)) __builtin_trap();
  } catch (const spindle::io::MidiFileError&) {
  }
  return 0;
}
