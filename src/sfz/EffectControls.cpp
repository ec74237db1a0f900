#include "sfz/EffectControls.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "core/Controllers.h"

namespace spindle::sfz {

namespace {

enum class Form { Depth, Curve, Smooth, Step };
struct FormName {
  std::string_view suffix;
  Form form;
  double lo, hi;
};
constexpr FormName kForms[] = {{"_oncc", Form::Depth, -1e9, 1e9},
                               {"_curvecc", Form::Curve, 0, 255},
                               {"_smoothcc", Form::Smooth, 0, 100000},
                               {"_stepcc", Form::Step, 0, 1e9}};

// The N of prefix + suffix + N, or -1.
int controllerOf(std::string_view name, std::string_view prefix, std::string_view suffix) {
  if (!name.starts_with(prefix) || name.size() <= prefix.size() + suffix.size()) return -1;
  if (name.substr(prefix.size(), suffix.size()) != suffix) return -1;
  const std::string_view digits = name.substr(prefix.size() + suffix.size());
  int n = -1;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return ec == std::errc() && end == digits.data() + digits.size() && n < controllers::kCount ? n : -1;
}

BusParamCc& controlOf(BusEffect& effect, BusParam param, int cc) {
  for (BusParamCc& c : effect.controllers)
    if (c.param == param && c.cc == cc) return c;
  return effect.controllers.emplace_back(BusParamCc{param, static_cast<uint16_t>(cc)});
}

}  // namespace

bool takeBusControl(BusEffect& effect, BusParam param, std::string_view prefix, const Token& token, double value,
                    instrument::Reporter& reporter) {
  for (const FormName& f : kForms) {
    const int cc = controllerOf(token.name, prefix, f.suffix);
    if (cc < 0) continue;
    const double v = std::clamp(value, f.lo, f.hi);
    if (v != value)
      reporter.warning(*token.file, token.line, token.name + "=" + token.value + " is out of range, clamped to " +
                                                    std::to_string(static_cast<int>(v)));
    BusParamCc& c = controlOf(effect, param, cc);
    switch (f.form) {
      case Form::Depth: c.depth = static_cast<float>(v); break;
      case Form::Curve: c.curve = static_cast<uint8_t>(v); break;
      case Form::Smooth: c.smoothMs = static_cast<float>(v); break;
      case Form::Step: c.step = static_cast<float>(v); break;
    }
    return true;
  }
  return false;
}

}  // namespace spindle::sfz
