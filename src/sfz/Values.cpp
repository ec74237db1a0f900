#include "sfz/Values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "sfz/Text.h"

namespace spindle::sfz {

std::optional<double> parseNumber(std::string_view text, bool* trailing) {
  if (text.starts_with('+')) text.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || !std::isfinite(value)) return std::nullopt;
  if (trailing) *trailing = end != text.data() + text.size();
  return value;
}

std::optional<int> parseNoteName(std::string_view text) {
  static constexpr int kSemitones[] = {9, 11, 0, 2, 4, 5, 7};  // a b c d e f g
  if (text.empty()) return std::nullopt;
  const char letter = text::toLower(text[0]);
  if (letter < 'a' || letter > 'g') return std::nullopt;
  int semitone = kSemitones[letter - 'a'];
  size_t pos = 1;
  if (pos < text.size() && text[pos] == '#') {
    ++semitone;
    ++pos;
  } else if (pos < text.size() && (text[pos] == 'b' || text[pos] == 'B')) {
    --semitone;
    ++pos;
  }
  int octave = 0;
  const auto [end, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), octave);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return (octave + 1) * 12 + semitone;
}

namespace {

std::string describeRange(const OpcodeSpec& spec) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "[%.10g, %.10g]", spec.min, spec.max);
  return buffer;
}

std::string describeNumber(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", v);
  return buffer;
}

ValueResult number(const OpcodeSpec& spec, std::string_view raw, int noteShift) {
  bool trailing = false;
  std::optional<double> value = parseNumber(raw, &trailing);
  const bool noteKind = spec.kind == ValueKind::Note || spec.kind == ValueKind::KeyRange;
  if (!value && noteKind) {
    if (const auto n = parseNoteName(raw)) value = *n, trailing = false;
  }
  if (!value) return {std::nullopt, "bad value '" + std::string(raw) + "' (ignored)"};
  ValueResult result;
  if (trailing) result.problem = "trailing text after number in '" + std::string(raw) + "' ignored";
  double v = spec.kind == ValueKind::Float ? *value : std::trunc(*value);
  if (spec.kind == ValueKind::KeyRange && v == -1.0) return {ParsedValue{-1.0, std::string(raw)}, result.problem};
  if (noteKind) v += noteShift;
  const bool hardRange = spec.hardMin < spec.hardMax;
  if (hardRange && (v < spec.min || v > spec.max) && v >= spec.hardMin && v <= spec.hardMax) {
    result.problem = "value '" + std::string(raw) + "' beyond the reference range " + describeRange(spec) + ", kept";
  } else if (v < spec.min || v > spec.max) {
    const double lo = hardRange ? spec.hardMin : spec.min, hi = hardRange ? spec.hardMax : spec.max;
    v = std::clamp(v, lo, hi);
    result.problem = "value '" + std::string(raw) + "' out of range " + describeRange(spec) + ", clamped" +
                     (hardRange ? " to " + describeNumber(v) : std::string());
  }
  result.value = ParsedValue{v, std::string(raw)};
  return result;
}

ValueResult option(const OpcodeSpec& spec, std::string_view raw) {
  const std::string wanted = text::lower(raw);
  for (size_t i = 0; i < spec.options.size(); ++i) {
    if (!spec.options[i].empty() && spec.options[i] == wanted)
      return {ParsedValue{static_cast<double>(i), std::string(raw)}, {}};
  }
  return {std::nullopt, "unsupported value '" + std::string(raw) + "' (ignored)"};
}

}  // namespace

ValueResult parseValue(const OpcodeSpec& spec, std::string_view raw, int noteShift) {
  if (raw.empty()) return {std::nullopt, "empty value (ignored)"};
  const auto* special = std::get_if<Special>(&spec.target);
  if (special && *special == Special::PitchKeycenter && text::equalsIgnoringCase(raw, "sample"))
    return {ParsedValue{-1.0, "sample"}, {}};
  switch (spec.kind) {
    case ValueKind::Text:
      return {ParsedValue{0.0, std::string(raw)}, {}};
    case ValueKind::Option:
      return option(spec, raw);
    case ValueKind::Integer:
    case ValueKind::Float:
    case ValueKind::Note:
    case ValueKind::KeyRange:
      break;
  }
  return number(spec, raw, noteShift);
}

}  // namespace spindle::sfz
