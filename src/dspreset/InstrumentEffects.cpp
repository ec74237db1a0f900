#include "dspreset/InstrumentEffects.h"

#include <algorithm>

#include "dspreset/Controls.h"
#include "dspreset/ConvolutionEffect.h"

namespace spindle::dspreset {

namespace {

void notPlayed(instrument::Reporter& report, const instrument::Instrument& out, const std::string& type,
               const std::string& why) {
  if (report.firstTime("instrument effect " + type))
    report.warning(out.path.string(), 0, "<effect type=\"" + type + "\"> not played (ignored): " + why);
}

// A delay whose time is a note length of the engine's tempo.
bool syncedDelay(const pugi::xml_node& e, const std::string& type) {
  return type == "delay" && std::string(e.attribute("delayTimeFormat").as_string("seconds")) == "musical_time";
}

// Why a type Spindle knows of is not played, or empty when it is.
std::string unplayedReason(const std::string& type) {
  if (type == "pitch_shift") return "Spindle has no pitch shifter";
  if (type == "stereo_simulator") return "Spindle has no stereo simulator";
  if (!effectKind(type)) return "Spindle does not know this effect type";
  return {};
}

}  // namespace

std::vector<EffectSlot> readInstrumentEffects(const pugi::xml_node& root, const std::filesystem::path& folder,
                                              instrument::Instrument& out, instrument::Reporter& report) {
  std::vector<EffectSlot> slots;
  bool shaperOversampled = false;
  for (const pugi::xml_node& e : root.child("effects").children("effect")) {
    const std::string type = e.attribute("type").as_string();
    EffectSlot& slot = slots.emplace_back();
    slot.tags = splitTags(e.attribute("tags").as_string());
    const std::string why = unplayedReason(type);
    if (!why.empty()) {
      notPlayed(report, out, type, why);
      continue;
    }
    slot.kind = effectKind(syncedDelay(e, type) ? "delay:musical_time" : type);
    if (syncedDelay(e, type) && e.attribute("stereoOffset") && report.firstTime("musical_time stereoOffset"))
      report.warning(out.path.string(), 0,
                     "delay stereoOffset not played (ignored) with delayTimeFormat=\"musical_time\": both taps wait the note length");
    slot.linear = linearLevel(e);
    BusEffect effect;
    if (type == "convolution") {  // its response, read from irFile (an error when it is not there)
      std::optional<BusEffect> read = convolutionEffect(e, folder, out.path.string(), report);
      if (!read) continue;
      effect = std::move(*read);
    }
    const float convolutionMix = effect.values[static_cast<size_t>(BusParam::ConvolutionMix)];
    slot.base = applyAttributes(*slot.kind, e, effect);
    effect.values[static_cast<size_t>(BusParam::ConvolutionMix)] = convolutionMix;  // clamped by its reader
    slot.bus = static_cast<int>(out.buses.effects.size());
    out.buses.effects.push_back(std::move(effect));
    shaperOversampled = shaperOversampled || (type == "wave_shaper" && e.attribute("highQuality").as_bool(true));
  }
  if (shaperOversampled && report.firstTime("wave_shaper highQuality"))
    report.warning(out.path.string(), 0,
                   "wave_shaper highQuality not played (ignored): the shaper runs at the engine's rate, not oversampled");
  return slots;
}

std::vector<const EffectSlot*> slotsNamed(const std::vector<EffectSlot>& slots, int index,
                                          const std::vector<std::string>& tags) {
  std::vector<const EffectSlot*> found;
  for (size_t i = 0; i < slots.size(); ++i) {
    const EffectSlot& s = slots[i];
    const bool tagged = std::any_of(tags.begin(), tags.end(), [&](const std::string& t) {
      return std::find(s.tags.begin(), s.tags.end(), t) != s.tags.end();
    });
    if (static_cast<int>(i) == index || tagged) found.push_back(&s);
  }
  return found;
}

}  // namespace spindle::dspreset
