#include "control/SessionPartEffects.h"

#include <charconv>

#include "core/PartEffects.h"

namespace spindle::control {

std::string formatBypassList(uint64_t mask) {
  std::string out;
  for (int i = 0; i < kBypassableEffects; ++i) {
    if (!effectBypassed(mask, i)) continue;
    if (!out.empty()) out += ' ';
    out += std::to_string(i + 1);
  }
  return out;
}

bool parseBypassList(const std::string& text, uint64_t& mask) {
  uint64_t out = 0;
  const char* at = text.data();
  const char* end = text.data() + text.size();
  while (at < end) {
    if (*at == ' ' || *at == ',' || *at == '\t') {
      ++at;
      continue;
    }
    int n = 0;
    const auto [next, ec] = std::from_chars(at, end, n);
    if (ec != std::errc{} || n < 1 || n > kBypassableEffects) return false;
    out = withEffectBypass(out, n - 1, true);
    at = next;
  }
  mask = out;
  return true;
}

}  // namespace spindle::control
