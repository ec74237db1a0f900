#pragma once
// Parsing one opcode value: numbers, note names, options; clamping to the table's range.
#include <optional>
#include <string>
#include <string_view>

#include "sfz/OpcodeTable.h"

namespace spindle::sfz {

// The leading decimal number of `text` ("12", "-3.5", "+1e2"); trailing text is reported
// through `trailing`.
std::optional<double> parseNumber(std::string_view text, bool* trailing = nullptr);

// A note name: letter a-g (any case), optional '#' or 'b', octave (c4 = 60, c-1 = 0).
std::optional<int> parseNoteName(std::string_view text);

struct ParsedValue {
  double number = 0;  // numeric kinds and Option (its index); -1 for KeyRange "no key"
  std::string text;   // Text kind, and the value as written
};

struct ValueResult {
  std::optional<ParsedValue> value;  // absent: the opcode is ignored
  std::string problem;               // non-empty: worth a diagnostic (also when value is set)
};

// `noteShift` (semitones, from octave_offset / note_offset) is added to Note values.
ValueResult parseValue(const OpcodeSpec& spec, std::string_view raw, int noteShift);

}  // namespace spindle::sfz
