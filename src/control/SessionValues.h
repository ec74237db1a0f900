#pragma once
// A session file's numbers: the whole text, in range, or nothing is written.
#include <charconv>
#include <cmath>
#include <sstream>
#include <string>

namespace spindle::control {

inline bool toInt(const std::string& text, int low, int high, int& out) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < low || v > high) return false;
  out = v;
  return true;
}

inline bool toFloat(const std::string& text, float low, float high, float& out) {
  std::istringstream in(text);
  float v = 0.0f;
  if (!(in >> v) || !in.eof() || !std::isfinite(v) || v < low || v > high) return false;
  out = v;
  return true;
}

}  // namespace spindle::control
