// Finding opcodes by name: the ones Spindle implements (OpcodeTable.cpp, ModOpcodes.cpp,
// SynthOpcodes.cpp), a number in the name standing for its N, and the ones the SFZ
// reference knows (ReferenceOpcodes.cpp).
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sfz/OpcodeTable.h"
#include "sfz/Text.h"

namespace spindle::sfz {

namespace {

// `name` with every run of digits (and, for reference patterns, N/X/Y) replaced by '#'.
std::string numberPattern(std::string_view name, bool placeholders) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool number = text::isDigit(c) || (placeholders && (c == 'N' || c == 'X' || c == 'Y'));
    if (!number) out.push_back(c);
    else if (out.empty() || out.back() != '#') out.push_back('#');
  }
  return out;
}

const std::unordered_map<std::string, const OpcodeSpec*>& tableIndex() {
  static const auto index = [] {
    std::unordered_map<std::string, const OpcodeSpec*> map;
    for (const auto table : {opcodeTable(), modOpcodeTable(), synthOpcodeTable()}) {
      for (const OpcodeSpec& s : table) {
        map.emplace(s.name, &s);
        for (std::string_view alias : s.aliases)
          if (!alias.empty()) map.emplace(alias, &s);
      }
    }
    return map;
  }();
  return index;
}

// The number in a name like "locc64" or "amp_velcurve_127", with the name made "loccN".
std::optional<std::pair<std::string, int>> splitIndex(std::string_view name) {
  size_t end = name.size();
  while (end > 0 && !text::isDigit(name[end - 1])) --end;
  size_t begin = end;
  while (begin > 0 && text::isDigit(name[begin - 1])) --begin;
  if (begin == end || end - begin > 6) return std::nullopt;
  int value = 0;
  for (size_t i = begin; i < end; ++i) value = value * 10 + (name[i] - '0');
  std::string pattern = std::string(name.substr(0, begin)) + "N" + std::string(name.substr(end));
  return std::make_pair(std::move(pattern), value);
}

}  // namespace

std::optional<OpcodeMatch> findOpcode(std::string_view name) {
  if (std::optional<OpcodeMatch> match; findSourceOpcode(name, match)) return match;  // lfoN_, egN_
  const auto& index = tableIndex();
  if (auto it = index.find(std::string(name)); it != index.end()) return OpcodeMatch{it->second, -1};
  const auto split = splitIndex(name);
  if (!split) return std::nullopt;
  const auto it = index.find(split->first);
  if (it == index.end()) return std::nullopt;
  return OpcodeMatch{it->second, split->second};
}

bool isReferenceOpcode(std::string_view name) {
  struct Patterns {
    std::unordered_set<std::string> exact;
    std::vector<std::string> prefixes, suffixes;  // from "hint_*", "*_mod"
  };
  static const Patterns patterns = [] {
    Patterns p;
    for (std::string_view n : referenceOpcodeNames()) {
      if (n.ends_with('*'))
        p.prefixes.push_back(numberPattern(n.substr(0, n.size() - 1), true));
      else if (n.starts_with('*'))
        p.suffixes.push_back(numberPattern(n.substr(1), true));
      else
        p.exact.insert(numberPattern(n, true));
    }
    return p;
  }();
  const std::string key = numberPattern(name, false);
  if (patterns.exact.count(key) != 0) return true;
  for (const std::string& prefix : patterns.prefixes)
    if (key.starts_with(prefix)) return true;
  for (const std::string& suffix : patterns.suffixes)
    if (key.ends_with(suffix)) return true;
  return false;
}

}  // namespace spindle::sfz
