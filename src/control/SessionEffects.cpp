#include "control/SessionEffects.h"

namespace spindle::control {

std::string formatEffectsSection(const EffectValues& values) {
  std::string out = "\n[effects]\n";
  for (const auto& info : kEffectParamTable)
    out += std::string(info.name) + " = " + formatEffectValue(info.id, values.get(info.id)) + "\n";
  return out;
}

bool parseEffectsLine(EffectValues& values, const std::string& key, const std::string& value, std::string& message) {
  const auto param = effectParamByName(key);
  if (!param) {
    message = "unknown effects setting '" + key + "' (";
    for (const auto& info : kEffectParamTable) message += std::string(info.name) + (&info == &kEffectParamTable.back() ? ")" : ", ");
    return false;
  }
  const auto parsed = parseEffectValue(*param, value);
  if (!parsed) {
    message = "bad value '" + value + "' for " + key + " (expected " + effectRangeText(*param) + ")";
    return false;
  }
  values.set(*param, *parsed);
  return true;
}

}  // namespace spindle::control
