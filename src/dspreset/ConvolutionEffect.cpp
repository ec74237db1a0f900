#include "dspreset/ConvolutionEffect.h"

#include <algorithm>

#include "instrument/Paths.h"

namespace spindle::dspreset {

namespace {

// mix="...": 0..1, clamped with a warning.
float mixOf(const pugi::xml_node& effect, const std::string& presetFile, instrument::Reporter& report) {
  const pugi::xml_attribute written = effect.attribute("mix");
  const float fallback = kBusParamDefaults[static_cast<size_t>(BusParam::ConvolutionMix)];
  if (!written) return fallback;
  const float mix = written.as_float(fallback);
  if (mix >= 0.0f && mix <= 1.0f) return mix;
  report.warning(presetFile, 0, std::string("convolution effect: mix=\"") + written.value() + "\" is outside 0..1, clamped");
  return std::clamp(mix, 0.0f, 1.0f);
}

}  // namespace

std::optional<BusEffect> convolutionEffect(const pugi::xml_node& effect, const std::filesystem::path& presetFolder,
                                           const std::string& presetFile, instrument::Reporter& report) {
  const std::string written = effect.attribute("irFile").value();
  if (written.empty()) {
    report.error(presetFile, 0, "convolution effect without irFile; the effect is left out");
    return std::nullopt;
  }
  const std::filesystem::path wanted = instrument::joinWritten(presetFolder, written);
  const std::optional<std::filesystem::path> found = instrument::findExisting(wanted);
  if (!found) {
    report.error(presetFile, 0, "convolution effect: impulse response \"" + wanted.string() +
                                    "\" (irFile=\"" + written + "\") not found; the effect is left out");
    return std::nullopt;
  }
  BusEffect out;
  out.type = BusEffectType::Convolution;
  out.bus = 0;
  out.values[static_cast<size_t>(BusParam::ConvolutionMix)] = mixOf(effect, presetFile, report);
  out.impulse.file = found->string();
  out.impulse.writtenIn = presetFile;
  return out;
}

}  // namespace spindle::dspreset
