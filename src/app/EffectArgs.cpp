#include "app/EffectArgs.h"

namespace spindle::app {

EffectArg applyEffectArg(EffectValues& values, const std::string& option, const std::string& value,
                         std::string& error) {
  if (option.rfind("--", 0) != 0) return EffectArg::NotEffect;
  const auto param = effectParamByName(std::string_view(option).substr(2));
  if (!param) return EffectArg::NotEffect;
  const auto parsed = parseEffectValue(*param, value);
  if (!parsed) {
    error = "invalid value '" + value + "' for " + option + " (expected " + effectRangeText(*param) + ")";
    return EffectArg::Wrong;
  }
  values.set(*param, *parsed);
  return EffectArg::Taken;
}

std::string effectArgsUsage(int column) {
  std::string out;
  for (const auto& info : kEffectParamTable) {
    std::string line = "  --" + std::string(info.name) + (info.toggle ? " on|off" : " X");
    line.resize(static_cast<size_t>(column) > line.size() + 1 ? static_cast<size_t>(column) : line.size() + 1, ' ');
    const std::string origin = info.fluidName.empty() ? "the main output's " + std::string(info.setting)
                                                      : std::string(info.fluidName);
    out += line + origin + ": " + effectRangeText(info.id) + ", default " +
           formatEffectValue(info.id, info.def) + "\n";
  }
  return out;
}

}  // namespace spindle::app
