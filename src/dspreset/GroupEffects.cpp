#include "dspreset/GroupEffects.h"

#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <numbers>
#include <vector>

#include "dspreset/Controls.h"
#include "dspreset/EffectKinds.h"

namespace spindle::dspreset {

namespace {

void notPlayed(instrument::Reporter& report, const std::string& file, const std::string& what, const std::string& why) {
  if (report.firstTime("group effect " + what))
    report.warning(file, 0, "group <effect type=\"" + what + "\"> not played (ignored): " + why);
}

// One group effect's attributes: a control's setting (an `overrides` attribute named by
// groupEffectAttribute) before the element's own.
struct EffectValues {
  const pugi::xml_node& element;
  const pugi::xml_node& overrides;
  int index;
  double get(const char* name, double fallback, std::initializer_list<const char*> bindings) const {
    for (const char* b : bindings) {
      const pugi::xml_attribute set = overrides.attribute(groupEffectAttribute(index, b).c_str());
      if (set) return set.as_double(fallback);
    }
    return attributeNamed(element, name).as_double(fallback);
  }
};

// Filter 1 if it is free, else filter 2; false when both are taken.
bool addFilter(Region& r, FilterType type, float cutoff, float q) {
  const auto resonance = static_cast<float>(20.0 * std::log10(static_cast<double>(std::max(q, 0.001f)) * std::numbers::sqrt2));
  if (r.cutoff < 0.0f) {
    r.filType = type, r.cutoff = cutoff, r.resonance = resonance;
    return true;
  }
  if (r.cutoff2 < 0.0f) {
    r.fil2Type = type, r.cutoff2 = cutoff, r.resonance2 = resonance;
    return true;
  }
  return false;
}

bool addPeak(Region& r, const EffectValues& e, int& bands) {
  if (bands >= static_cast<int>(r.eq.size())) return false;
  const EffectKind& kind = *effectKind("peak");
  EqBand& band = r.eq[static_cast<size_t>(bands++)];
  band.type = EqType::Peak;
  band.freq = convertAttribute(kind.attributes[0], e.get("frequency", 10000.0, {"FX_FILTER_FREQUENCY"}), false);
  band.bw = convertAttribute(kind.attributes[1], e.get("q", 0.7, {"FX_FILTER_Q"}), false);
  band.gain = convertAttribute(kind.attributes[2], e.get("gain", 1.0, {"FX_FILTER_GAIN"}), false);
  return true;
}

// The next of the region's shaper stages, from the element's attributes (the guide's
// defaults where missing); false when both are taken.
bool addShaper(Region& r, const EffectKind& kind, const EffectValues& e) {
  if (r.shaperCount >= kMaxShaperStages) return false;
  const auto value = [&](int i) {
    const EffectAttribute& a = kind.attributes[i];
    return convertAttribute(a, e.get(a.name, a.fallback, {a.binding}), false);
  };
  ShaperStage& stage = r.shapers[r.shaperCount++];
  stage = ShaperStage{};
  stage.drive = value(0);
  if (kind.bus == BusEffectType::WaveFolder) {
    stage.type = ShaperType::Folder;
    stage.threshold = value(1);
  } else {
    stage.type = ShaperType::Shaper;
    stage.driveBoost = value(1);
    stage.outputLevel = value(2);
  }
  return true;
}

void addWaveEffect(Region& r, const EffectKind& kind, const EffectValues& e, instrument::Reporter& report,
                   const std::string& file) {
  if (!addShaper(r, kind, e))
    return notPlayed(report, file, std::string(kind.type), "a group plays at most two wave_folder or wave_shaper effects");
  if (kind.bus == BusEffectType::WaveShaper && e.element.attribute("highQuality").as_bool(true) &&
      report.firstTime("group wave_shaper highQuality"))
    report.warning(file, 0, "group wave_shaper highQuality not played (ignored): the shaper runs at the engine's rate, not oversampled");
}

// The kinds a group plays on its regions.
bool playedHere(const EffectKind& kind) {
  using T = BusEffectType;
  return kind.bus == T::Filter || kind.bus == T::Eq || kind.bus == T::Gain || kind.bus == T::WaveFolder ||
         kind.bus == T::WaveShaper;
}

// A control's binding (an `overrides` attribute "_fx<index>_<parameter>") to a parameter
// the group's effect at that index does not play: reported, once per preset.
void checkBindings(const pugi::xml_node& group, const pugi::xml_node& overrides, instrument::Reporter& report,
                   const std::string& file) {
  std::vector<std::string> types;
  for (const pugi::xml_node& element : group.child("effects").children("effect"))
    types.emplace_back(element.attribute("type").as_string());
  for (const pugi::xml_attribute& a : overrides.attributes()) {
    const std::string name = a.name();
    const size_t sep = name.find('_', 3);
    if (name.rfind("_fx", 0) != 0 || sep == std::string::npos) continue;
    const auto index = static_cast<size_t>(std::atoi(name.substr(3, sep - 3).c_str()));
    const std::string parameter = name.substr(sep + 1);
    const EffectKind* kind = index < types.size() ? effectKind(types[index]) : nullptr;
    const bool played = kind && playedHere(*kind) && boundAttribute(*kind, parameter);
    if (played || !report.firstTime("group effect binding " + name)) continue;
    report.warning(file, 0, "binding to " + parameter + " of group effect " + std::to_string(index) +
                                " not played (ignored): " +
                                (kind ? "the group's " + types[index] + " effect has no such parameter Spindle plays"
                                      : "the group has no such effect Spindle plays"));
  }
}

}  // namespace

void applyGroupEffects(const pugi::xml_node& group, const pugi::xml_node& overrides, Region& r,
                       instrument::Reporter& report, const std::string& file) {
  int bands = 0, index = 0;
  for (const pugi::xml_node& element : group.child("effects").children("effect")) {
    const EffectValues e{element, overrides, index++};
    const std::string type = element.attribute("type").as_string();
    const EffectKind* kind = effectKind(type);
    if (kind && kind->bus == BusEffectType::Filter) {
      const bool notch = type == "notch";
      const auto cutoff = static_cast<float>(e.get("frequency", notch ? 10000.0 : 22000.0, {"FX_FILTER_FREQUENCY"}));
      const auto q = static_cast<float>(notch ? e.get("q", 0.7, {"FX_FILTER_Q"}) : e.get("resonance", 0.7, {"FX_FILTER_RESONANCE"}));
      if (!addFilter(r, kind->filter, cutoff, type == "lowpass_1pl" ? 0.7071f : q))
        notPlayed(report, file, type, "a group plays at most two filters (its voices' filter 1 and 2)");
    } else if (type == "peak") {
      if (!addPeak(r, e, bands)) notPlayed(report, file, type, "a group plays at most three peak bands (its voices' EQ)");
    } else if (type == "gain") {
      r.volume += convertAttribute(kind->attributes[0], e.get("level", 0.0, {"LEVEL", "FX_GAIN"}), linearLevel(element));
    } else if (kind && (kind->bus == BusEffectType::WaveFolder || kind->bus == BusEffectType::WaveShaper)) {
      addWaveEffect(r, *kind, e, report, file);
    } else if (type == "chorus") {
      notPlayed(report, file, type, "a chorus per voice needs a delay line per voice, which voices do not have");
    } else {
      notPlayed(report, file, type, "Spindle plays only filters, peak, gain, wave_folder and wave_shaper as group effects");
    }
  }
  checkBindings(group, overrides, report, file);
}

}  // namespace spindle::dspreset
