#include "sfz/ControlSettings.h"

#include <algorithm>
#include <cmath>

#include "sfz/Text.h"
#include "sfz/Values.h"

namespace spindle::sfz {

bool ControlSettings::take(const Token& token) {
  Values& v = values_;
  if (token.name == "default_path")
    v.defaultPath = text::forwardSlashes(token.value);
  else if (token.name == "octave_offset")
    v.octaveOffset = integer(token, -10, 10).value_or(v.octaveOffset);
  else if (token.name == "note_offset")
    v.noteOffset = integer(token, -127, 127).value_or(v.noteOffset);
  else if (token.name == "sw_octave_offset")
    v.swOctaveOffset = integer(token, -10, 10).value_or(v.swOctaveOffset);
  else if (token.name == "sw_note_offset")
    v.swNoteOffset = integer(token, -127, 127).value_or(v.swNoteOffset);
  else
    return false;
  return true;
}

int ControlSettings::noteShift(const OpcodeSpec& spec) const {
  const bool keyswitch = spec.kind == ValueKind::Note && spec.name.starts_with("sw_");
  const int shift = values_.octaveOffset * 12 + values_.noteOffset;
  return shift + (keyswitch ? values_.swOctaveOffset * 12 + values_.swNoteOffset : 0);
}

std::optional<int> ControlSettings::integer(const Token& token, int lo, int hi) {
  bool trailing = false;
  const std::optional<double> value = parseNumber(token.value, &trailing);
  if (!value || trailing) {
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': bad value '" + token.value + "' (ignored)");
    return std::nullopt;
  }
  const double clamped = std::clamp(std::trunc(*value), static_cast<double>(lo), static_cast<double>(hi));
  if (clamped != std::trunc(*value))
    reporter_.warning(*token.file, token.line, "opcode '" + token.name + "': value '" + token.value + "' clamped");
  return static_cast<int>(clamped);
}

}  // namespace spindle::sfz
