#pragma once
// Standard MIDI File reader: formats 0 and 1, all tracks merged into one list of
// channel messages timestamped in seconds.
//
// Thread: any non-audio thread (the offline renderer's, the loader's).
//
// - Tempo changes (meta 0x51) apply wherever they occur, in any track, including
//   mid-song in a format-1 tempo track. Times are computed exactly: microseconds
//   times ticks are summed in integers and divided once per event.
// - SMPTE divisions (negative first byte) are honoured: a tick is
//   1 / (frames per second * ticks per frame) seconds, tempo is ignored; -29 means
//   29.97 drop-frame.
// - Running status, sysex (0xF0/0xF7) and meta events are handled; MIDI Tuning
//   Standard sysex becomes tuning events (core/MidiTuning.h), an escape holding one MIDI
//   clock message (F7 01 F8: the way a file carries realtime bytes; also FA, FB, FC)
//   becomes that event, other sysex, escapes and meta are skipped. Note-on with velocity 0 is kept as it is (it means note-off).
// - Events at the same time keep their order: by track, then by position in it.
// - Format 2 (independent sequences) is rejected. Malformed input raises
//   MidiFileError, whose message names the file and the byte offset.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace spindle::io {

struct TimedMidiEvent {
  double seconds = 0.0;
  uint8_t status = 0, data1 = 0, data2 = 0;
  uint16_t parts = 0;  // tuning events decoded from MIDI Tuning Standard sysex (core/MidiTuning.h)
  float cents = 0.0f;
};

// A tempo meta event (0x51): from `seconds` on, the song runs at `bpm` quarter notes
// per minute (for the engine's lobpm/hibpm; times above already follow it).
struct TempoChange {
  double seconds = 0.0;
  double bpm = 120.0;
};

struct MidiSong {
  std::string name;      // the file (or the name given to parseMidiFile)
  int format = 0;        // 0 or 1
  int tracks = 0;        // MTrk chunks read
  int division = 0;      // the header's raw division word
  std::vector<TimedMidiEvent> events;  // channel messages, sorted by time
  std::vector<TempoChange> tempos;     // tempo meta events, sorted by time
  double lengthSeconds = 0.0;          // time of the last event of any kind (end of track)
  std::vector<std::string> warnings;   // oddities that did not stop parsing
};

class MidiFileError : public std::runtime_error {
 public:
  MidiFileError(const std::string& file, std::size_t offset, const std::string& message);
  std::size_t offset() const noexcept { return offset_; }

 private:
  std::size_t offset_;
};

MidiSong parseMidiFile(const uint8_t* data, std::size_t size, const std::string& name);
// Reads the file; a file that cannot be opened raises MidiFileError at offset 0.
MidiSong readMidiFile(const std::filesystem::path& path);

// The frame at which an event `seconds` into the song falls, at `sampleRate`.
int64_t secondsToFrames(double seconds, double sampleRate) noexcept;

}  // namespace spindle::io
