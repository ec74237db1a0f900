#pragma once
// The <control> header's settings, which hold for the opcodes after them until the next
// <control>: default_path (put before every sample path), octave_offset and note_offset
// (added to every note value), sw_octave_offset and sw_note_offset (ARIA: added to
// keyswitch notes only). Loader thread, fed by the Parser.
#include <optional>
#include <string>

#include "instrument/Reporter.h"
#include "sfz/OpcodeTable.h"
#include "sfz/Preprocessor.h"

namespace spindle::sfz {

class ControlSettings {
 public:
  explicit ControlSettings(instrument::Reporter& reporter) : reporter_(reporter) {}

  void reset() { values_ = Values{}; }  // a new <control> header
  // True when the token is one of these settings (read here; a bad value is reported
  // and the setting keeps its value).
  bool take(const Token& token);

  const std::string& defaultPath() const { return values_.defaultPath; }
  // Semitones added to a Note value of `spec`. Keyswitch opcodes (sw_last, sw_lolast...)
  // move with note_offset like every note value, and further by sw_note_offset /
  // sw_octave_offset.
  int noteShift(const OpcodeSpec& spec) const;

 private:
  struct Values {
    std::string defaultPath;
    int octaveOffset = 0, noteOffset = 0;
    int swOctaveOffset = 0, swNoteOffset = 0;
  };
  std::optional<int> integer(const Token& token, int lo, int hi);

  instrument::Reporter& reporter_;
  Values values_;
};

}  // namespace spindle::sfz
