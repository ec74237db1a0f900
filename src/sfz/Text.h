#pragma once
// Small string helpers shared by the sfz parser's stages.
#include <algorithm>
#include <string>
#include <string_view>

namespace spindle::sfz::text {

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// Characters of a #define name.
inline bool isIdentChar(char c) { return isAlpha(c) || isDigit(c) || c == '_'; }
// Characters of an opcode name before '=' ($ for names built from defines).
inline bool isOpcodeChar(char c) { return isIdentChar(c) || c == '$'; }

inline char toLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), toLower);
  return out;
}

inline bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return toLower(x) == toLower(y); });
}

inline std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && isSpace(s[b])) ++b;
  while (e > b && isSpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

inline size_t skipSpaces(std::string_view s, size_t pos) {
  while (pos < s.size() && isSpace(s[pos])) ++pos;
  return pos;
}

inline size_t skipToken(std::string_view s, size_t pos) {
  while (pos < s.size() && !isSpace(s[pos])) ++pos;
  return pos;
}

inline std::string forwardSlashes(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '\\', '/');
  return out;
}

}  // namespace spindle::sfz::text
