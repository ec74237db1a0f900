// Scala .scl and .kbm parsing: every value checked, errors name the file and line.
#include "instrument/Scala.h"

#include <charconv>
#include <cmath>
#include <optional>

namespace spindle::instrument {

std::string TuningFileError::text() const {
  return line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message;
}

namespace {

// The file's lines that are not comments, each with its 1-based number, CR stripped.
struct Line {
  std::string_view text;
  int number = 0;
};

std::vector<Line> contentLines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number;
    if (line.empty() || line.front() != '!') lines.push_back({line, number});
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

// The first whitespace-separated word of the line (the rest is a comment).
std::string_view firstWord(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const size_t e = s.find_first_of(" \t", b);
  return s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
}

std::optional<long long> integer(std::string_view w) {
  long long v = 0;
  if (!w.empty() && w.front() == '+') w.remove_prefix(1);
  const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || p != w.data() + w.size()) return std::nullopt;
  return v;
}

std::optional<double> decimal(std::string_view w) {
  double v = 0.0;
  if (!w.empty() && w.front() == '+') w.remove_prefix(1);
  const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || p != w.data() + w.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// A pitch line: cents with a '.', else a ratio a/b or an integer a, in cents.
std::optional<double> pitchCents(std::string_view w, std::string& why) {
  if (w.find('.') != std::string_view::npos) {
    const auto c = decimal(w);
    if (!c) why = "'" + std::string(w) + "' is not a number of cents";
    return c;
  }
  const size_t slash = w.find('/');
  const auto num = integer(w.substr(0, slash));
  const auto den = slash == std::string_view::npos ? std::optional<long long>(1) : integer(w.substr(slash + 1));
  if (!num || !den) {
    why = "'" + std::string(w) + "' is neither cents nor a ratio";
    return std::nullopt;
  }
  if (*num <= 0 || *den <= 0) {
    why = "the ratio '" + std::string(w) + "' is not positive";
    return std::nullopt;
  }
  return 1200.0 * std::log2(static_cast<double>(*num) / static_cast<double>(*den));
}

bool fail(TuningFileError& error, const std::string& file, int line, std::string message) {
  error = {file, line, std::move(message)};
  return false;
}

}  // namespace

bool parseScala(std::string_view text, const std::string& file, ScalaScale& out, TuningFileError& error) {
  const std::vector<Line> lines = contentLines(text);
  if (lines.size() < 2) return fail(error, file, lines.empty() ? 0 : lines[0].number, "no note count");
  out.description = std::string(lines[0].text);
  const auto count = integer(firstWord(lines[1].text));
  if (!count || *count < 1 || *count > 1024)
    return fail(error, file, lines[1].number, "the note count must be a whole number from 1 to 1024");
  out.cents.clear();
  int lastLine = lines[1].number;  // the last line read, for a scale cut short
  for (size_t i = 2; i < lines.size() && out.cents.size() < static_cast<size_t>(*count); ++i) {
    std::string why;
    const std::string_view w = firstWord(lines[i].text);
    if (w.empty()) continue;  // blank lines between pitches are lenient
    const auto c = pitchCents(w, why);
    if (!c) return fail(error, file, lines[i].number, why);
    out.cents.push_back(*c);
    lastLine = lines[i].number;
  }
  if (out.cents.size() < static_cast<size_t>(*count)) {
    return fail(error, file, lastLine,
                "expected " + std::to_string(*count) + " pitches, found " + std::to_string(out.cents.size()));
  }
  return true;
}

namespace {

// The seven numbers before the mapping.
bool keymapHeader(const std::vector<Line>& lines, const std::string& file, KeyboardMap& out,
                  TuningFileError& error) {
  static const char* const kFields[] = {"map size", "first note", "last note", "middle note", "reference note"};
  int values[5] = {};
  for (size_t f = 0; f < 5; ++f) {
    if (f >= lines.size()) return fail(error, file, 0, std::string("no ") + kFields[f]);
    const auto v = integer(firstWord(lines[f].text));
    const int most = f == 0 ? 1024 : 127;
    if (!v || *v < 0 || *v > most) {
      return fail(error, file, lines[f].number,
                  std::string("the ") + kFields[f] + " must be a whole number from 0 to " + std::to_string(most));
    }
    values[f] = static_cast<int>(*v);
  }
  out.size = values[0];
  out.first = values[1];
  out.last = values[2];
  out.middle = values[3];
  out.reference = values[4];
  out.referenceLine = lines[4].number;
  if (lines.size() < 7) return fail(error, file, 0, "no reference frequency or octave degree");
  const auto hz = decimal(firstWord(lines[5].text));
  if (!hz || *hz <= 0.0) return fail(error, file, lines[5].number, "the reference frequency must be above 0 Hz");
  out.frequency = *hz;
  const auto octave = integer(firstWord(lines[6].text));
  if (!octave || *octave < 0 || *octave > 1024)
    return fail(error, file, lines[6].number, "the octave degree must be a whole number from 0 to 1024");
  out.octaveDegree = static_cast<int>(*octave);
  out.octaveDegreeLine = lines[6].number;
  return true;
}

}  // namespace

bool parseKeyboardMap(std::string_view text, const std::string& file, KeyboardMap& out, TuningFileError& error) {
  std::vector<Line> lines = contentLines(text);
  while (!lines.empty() && firstWord(lines.back().text).empty()) lines.pop_back();
  if (!keymapHeader(lines, file, out, error)) return false;
  out.degrees.assign(static_cast<size_t>(out.size), -1);
  for (size_t i = 7; i < lines.size(); ++i) {
    const size_t entry = i - 7;
    if (entry >= out.degrees.size()) return fail(error, file, lines[i].number, "more entries than the map size");
    const std::string_view w = firstWord(lines[i].text);
    if (w == "x" || w == "X") continue;
    const auto d = integer(w);
    if (!d || *d < 0 || *d > 65536)
      return fail(error, file, lines[i].number, "'" + std::string(w) + "' is neither a scale degree nor 'x'");
    out.degrees[entry] = static_cast<int>(*d);
  }
  return true;
}

}  // namespace spindle::instrument
