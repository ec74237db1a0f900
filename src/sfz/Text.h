#pragma once
// Small string helpers shared by the sfz parser's stages: SFZ's lexical classes and
// token scanning. Case folding and path slashes are every loader's (instrument/Text.h).
#include <string_view>

#include "instrument/Text.h"

namespace spindle::sfz::text {

using instrument::text::equalsIgnoringCase;
using instrument::text::forwardSlashes;
using instrument::text::lower;
using instrument::text::toLower;

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// Characters of a #define name.
inline bool isIdentChar(char c) { return isAlpha(c) || isDigit(c) || c == '_'; }
// Characters of an opcode name before '=' ($ for names built from defines).
inline bool isOpcodeChar(char c) { return isIdentChar(c) || c == '$'; }

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

}  // namespace spindle::sfz::text
