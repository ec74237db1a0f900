#include "formats/ImpulseResponses.h"

#include <algorithm>
#include <string>

#include "stream/ImpulseResponseFile.h"

namespace spindle::formats {

void readImpulseResponses(instrument::Instrument& instrument) {
  std::vector<BusEffect>& effects = instrument.buses.effects;
  const auto unreadable = [&](BusEffect& effect) {
    if (effect.type != BusEffectType::Convolution || effect.impulse.frames) return false;
    std::string error;
    effect.impulse.frames = stream::readImpulseResponse(effect.impulse.file, error);
    if (effect.impulse.frames) return false;
    const std::string& file = effect.impulse.writtenIn.empty() ? instrument.path.string() : effect.impulse.writtenIn;
    instrument.diagnostics.push_back({instrument::Diagnostic::Severity::Error, file, effect.impulse.line,
                                      "convolution effect: impulse response \"" + effect.impulse.file + "\" " +
                                          error + "; the effect is left out"});
    return true;
  };
  effects.erase(std::remove_if(effects.begin(), effects.end(), unreadable), effects.end());
}

void resampleImpulseResponses(BusLayout& layout, double rate) {
  for (BusEffect& effect : layout.effects)
    if (effect.type == BusEffectType::Convolution)
      effect.impulse.frames = stream::resampleImpulseResponse(effect.impulse.frames, rate);
}

}  // namespace spindle::formats
