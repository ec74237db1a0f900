#include "sfz/Preprocessor.h"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <system_error>

#include "instrument/Paths.h"
#include "sfz/Text.h"

namespace spindle::sfz {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxIncludeDepth = 32;
// Bounds that keep a hostile or broken file from hanging the loader or exhausting
// memory (found by fuzzing): files read per load (an include tree fanning out 2^depth),
// one file's size (#include "/dev/zero"), one expanded value ($A defined as $B$B...).
constexpr size_t kMaxIncludesPerLoad = 4096;
constexpr std::uintmax_t kMaxFileBytes = 64u << 20;
constexpr size_t kMaxExpandedBytes = 4096;

// Appends `line` without its comments to `out`; `inBlock` carries a /* */ across lines.
void stripComments(std::string_view line, bool& inBlock, std::string& out) {
  out.clear();
  size_t pos = 0;
  while (pos < line.size()) {
    if (inBlock) {
      const size_t close = line.find("*/", pos);
      if (close == std::string_view::npos) return;
      inBlock = false;
      out.push_back(' ');
      pos = close + 2;
      continue;
    }
    const size_t slash = line.find('/', pos);
    if (slash == std::string_view::npos || slash + 1 >= line.size()) break;
    out.append(line.substr(pos, slash - pos));
    pos = slash + 1;
    if (line[pos] == '/') return;
    if (line[pos] == '*') {
      inBlock = true;
      ++pos;
    } else {
      out.push_back('/');
    }
  }
  if (!inBlock && pos < line.size()) out.append(line.substr(pos));
}

// True when an opcode "name=" starts at pos.
bool opcodeStartsAt(std::string_view line, size_t pos) {
  size_t end = pos;
  while (end < line.size() && text::isOpcodeChar(line[end])) ++end;
  return end > pos && end < line.size() && line[end] == '=';
}

bool directiveStartsAt(std::string_view line, size_t pos) {
  const std::string_view rest = line.substr(pos);
  return rest.starts_with("#define") || rest.starts_with("#include");
}

// End of the value that starts at pos (see the value rule in Preprocessor.h).
size_t valueEnd(std::string_view line, size_t pos) {
  while (pos < line.size()) {
    if (line[pos] == '<') return pos;
    if (!text::isSpace(line[pos])) {
      ++pos;
      continue;
    }
    const size_t next = text::skipSpaces(line, pos);
    if (next == line.size()) return next;
    if (line[next] == '<' || opcodeStartsAt(line, next) || directiveStartsAt(line, next)) return next;
    pos = next;
  }
  return pos;
}

}  // namespace

const std::string& Preprocessor::internFile(const fs::path& file) {
  fileNames_.push_back(std::make_unique<std::string>(file.string()));
  return *fileNames_.back();
}

bool Preprocessor::runFile(const fs::path& file) {
  const std::string& name = internFile(file);
  std::error_code ec;
  if (fs::exists(file, ec) && (!fs::is_regular_file(file, ec) || fs::file_size(file, ec) > kMaxFileBytes)) {
    reporter_.error(name, 0, "'" + name + "' is not a regular file of at most 64 MiB");
    return false;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    reporter_.error(name, 0, "cannot open file '" + name + "'");
    return false;
  }
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    reporter_.error(name, 0, "cannot read file '" + name + "'");
    return false;
  }
  runText(content, file);
  return true;
}

void Preprocessor::runText(std::string_view content, const fs::path& file) {
  std::error_code ec;
  fs::path key = fs::weakly_canonical(fs::absolute(file, ec), ec);
  openFiles_.push_back(ec ? file : key);
  if (content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);
  runLines(content, internFile(file));
  openFiles_.pop_back();
}

void Preprocessor::runLines(std::string_view content, const std::string& file) {
  bool inBlock = false;
  std::string stripped;
  int lineNo = 0;
  size_t pos = 0;
  while (pos <= content.size()) {
    size_t eol = content.find('\n', pos);
    if (eol == std::string_view::npos) eol = content.size();
    ++lineNo;
    stripComments(content.substr(pos, eol - pos), inBlock, stripped);
    scanLine(stripped, Place{&file, lineNo});
    pos = eol + 1;
  }
}

void Preprocessor::scanLine(std::string_view line, Place place) {
  size_t pos = text::skipSpaces(line, 0);
  while (pos < line.size()) {
    if (line[pos] == '<')
      pos = scanHeader(line, pos, place);
    else if (line[pos] == '#')
      pos = scanDirective(line, pos, place);
    else
      pos = scanOpcode(line, pos, place);
    pos = text::skipSpaces(line, pos);
  }
}

size_t Preprocessor::scanHeader(std::string_view line, size_t pos, Place place) {
  const size_t close = line.find('>', pos);
  if (close == std::string_view::npos) {
    reporter_.warning(*place.file, place.line, "malformed header '" + std::string(line.substr(pos)) + "' (no '>')");
    return line.size();
  }
  sink_(Token{Token::Kind::Header, std::string(text::trim(line.substr(pos + 1, close - pos - 1))), {},
              place.file, place.line});
  return close + 1;
}

size_t Preprocessor::scanOpcode(std::string_view line, size_t pos, Place place) {
  size_t nameEnd = pos;
  while (nameEnd < line.size() && text::isOpcodeChar(line[nameEnd])) ++nameEnd;
  if (nameEnd == pos || nameEnd == line.size() || line[nameEnd] != '=') {
    const size_t end = std::max(text::skipToken(line, pos), pos + 1);
    sink_(Token{Token::Kind::Stray, std::string(line.substr(pos, end - pos)), {}, place.file, place.line});
    return end;
  }
  const size_t end = valueEnd(line, nameEnd + 1);
  sink_(Token{Token::Kind::Opcode, expand(line.substr(pos, nameEnd - pos), place),
              expand(text::trim(line.substr(nameEnd + 1, end - nameEnd - 1)), place), place.file, place.line});
  return end;
}

size_t Preprocessor::scanDirective(std::string_view line, size_t pos, Place place) {
  size_t wordEnd = pos + 1;
  while (wordEnd < line.size() && text::isAlpha(line[wordEnd])) ++wordEnd;
  const std::string_view word = line.substr(pos + 1, wordEnd - pos - 1);
  if (word == "define") return scanDefine(line, wordEnd, place);
  if (word == "include") return scanInclude(line, wordEnd, place);
  reporter_.warning(*place.file, place.line, "unknown directive '#" + std::string(word) + "' (line skipped)");
  return line.size();
}

size_t Preprocessor::scanDefine(std::string_view line, size_t pos, Place place) {
  const size_t nameStart = text::skipSpaces(line, pos);
  const size_t nameEnd = text::skipToken(line, nameStart);
  const size_t valueStart = text::skipSpaces(line, nameEnd);
  const size_t valueStop = text::skipToken(line, valueStart);
  const std::string_view name = line.substr(nameStart, nameEnd - nameStart);
  const bool validName = name.size() > 1 && name[0] == '$' &&
                         std::all_of(name.begin() + 1, name.end(), text::isIdentChar);
  if (!validName || valueStart == valueStop) {
    reporter_.warning(*place.file, place.line, "malformed #define (expected '#define $NAME value')");
    return line.size();
  }
  defines_[std::string(name.substr(1))] = expand(line.substr(valueStart, valueStop - valueStart), place);
  return valueStop;
}

size_t Preprocessor::scanInclude(std::string_view line, size_t pos, Place place) {
  const size_t open = text::skipSpaces(line, pos);
  const size_t close = open < line.size() && line[open] == '"' ? line.find('"', open + 1) : std::string_view::npos;
  if (close == std::string_view::npos) {
    reporter_.warning(*place.file, place.line, "malformed #include (expected '#include \"path\"')");
    return line.size();
  }
  include(expand(line.substr(open + 1, close - open - 1), place), place);
  return close + 1;
}

// ARIA and sfizz resolve every #include against the top-level file's folder, however
// deep the include; a path found only next to the including file still loads, with a
// warning naming both (the rule of older SFZ players, and some hand-written trees).
std::optional<fs::path> Preprocessor::resolveInclude(std::string_view written, Place place) {
  const fs::path wanted = instrument::joinWritten(openFiles_.front().parent_path(), written);
  if (std::optional<fs::path> found = instrument::findExisting(wanted)) return found;
  const fs::path local = instrument::joinWritten(openFiles_.back().parent_path(), written);
  if (local != wanted) {
    if (std::optional<fs::path> found = instrument::findExisting(local)) {
      reporter_.warning(*place.file, place.line,
                        "included file '" + wanted.string() + "' (relative to the top-level file) not found; read '" +
                            found->string() + "' (relative to the including file) instead");
      return found;
    }
  }
  reporter_.error(*place.file, place.line, "included file not found: '" + wanted.string() + "'");
  return std::nullopt;
}

void Preprocessor::include(std::string_view written, Place place) {
  const std::optional<fs::path> found = resolveInclude(written, place);
  if (!found) return;
  std::error_code ec;
  const fs::path key = fs::weakly_canonical(*found, ec);
  for (const fs::path& open : openFiles_) {
    if (open == key) {
      reporter_.error(*place.file, place.line, "#include loop: '" + key.string() + "' is already being read");
      return;
    }
  }
  if (openFiles_.size() >= kMaxIncludeDepth) {
    reporter_.error(*place.file, place.line, "#include nested too deep");
    return;
  }
  if (++includesRead_ > kMaxIncludesPerLoad) {
    if (includesRead_ == kMaxIncludesPerLoad + 1)
      reporter_.error(*place.file, place.line, "more than 4096 #include reads in one instrument: the rest are skipped");
    return;
  }
  runFile(*found);
}

std::string Preprocessor::expand(std::string_view in, Place place) {
  if (in.find('$') == std::string_view::npos) return std::string(in);
  std::string out;
  size_t pos = 0;
  while (pos < in.size()) {
    if (in[pos] != '$') {
      out.push_back(in[pos++]);
      continue;
    }
    size_t identEnd = pos + 1;
    while (identEnd < in.size() && text::isIdentChar(in[identEnd])) ++identEnd;
    size_t len = identEnd - pos - 1;
    for (; len > 0; --len) {
      const auto it = defines_.find(std::string(in.substr(pos + 1, len)));
      if (it == defines_.end()) continue;
      out += it->second;
      break;
    }
    if (len == 0) {
      reporter_.warning(*place.file, place.line,
                        "undefined variable '" + std::string(in.substr(pos, identEnd - pos)) + "' kept as written");
      out.append(in.substr(pos, identEnd - pos));
      len = identEnd - pos - 1;
    }
    pos += 1 + len;
    if (out.size() > kMaxExpandedBytes) {
      reporter_.error(*place.file, place.line, "value longer than 4096 bytes after $ expansion: cut there");
      out.resize(kMaxExpandedBytes);
      break;
    }
  }
  return out;
}

}  // namespace spindle::sfz
