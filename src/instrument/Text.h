#pragma once
// ASCII text helpers for what instrument files write (names, options, paths), shared by
// the loaders and the path lookup. Any thread; pure functions.
#include <algorithm>
#include <string>
#include <string_view>

namespace spindle::instrument::text {

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

// A path as written on Windows ("Samples\Piano\C4.wav") with forward slashes.
inline std::string forwardSlashes(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '\\', '/');
  return out;
}

}  // namespace spindle::instrument::text
