#include "app/TempoArgs.h"

#include <charconv>
#include <cmath>

namespace spindle::app {

std::optional<float> parseTempoArg(const std::string& text) {
  float value = 0.0f;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  if (value < kMinTempoArg || value > kMaxTempoArg) return std::nullopt;
  return value;
}

}  // namespace spindle::app
