#include "dspreset/GlobalLfo.h"

#include <string>

#include "dspreset/Controls.h"
#include "dspreset/Translation.h"

namespace spindle::dspreset {

namespace {

void notPlayed(instrument::Reporter& report, const instrument::Instrument& out, const std::string& what) {
  if (report.firstTime("modulators " + what))
    report.warning(out.path.string(), 0, "<modulators> " + what + " not played (ignored)");
}

BusParamLfo::Behavior behaviorOf(const pugi::xml_node& lfo, const pugi::xml_node& binding) {
  const std::string b = binding.attribute("modBehavior").as_string(lfo.attribute("modBehavior").as_string("set"));
  return b == "add" ? BusParamLfo::Behavior::Add
         : b == "multiply" ? BusParamLfo::Behavior::Multiply
                           : BusParamLfo::Behavior::Set;
}

uint8_t waveOf(const std::string& shape) { return shape == "square" ? 1 : shape == "saw" ? 2 : 0; }

void bindLfo(const pugi::xml_node& lfo, const pugi::xml_node& binding, const EffectSlot& slot,
             instrument::Instrument& out, instrument::Reporter& report) {
  const std::string parameter = binding.attribute("parameter").as_string();
  const EffectAttribute* a = boundAttribute(*slot.kind, parameter);
  if (!a) return notPlayed(report, out, "LFO bindings to " + parameter + " of " + std::string(slot.kind->type) + " are");
  BusEffect& effect = out.buses.effects[static_cast<size_t>(slot.bus)];
  if (effect.lfos.size() + (a->param2 ? 2 : 1) > static_cast<size_t>(kMaxBusLfos))
    return notPlayed(report, out, "LFOs beyond " + std::to_string(kMaxBusLfos) + " on one effect are");
  const Translation translation(binding);
  const double amount = lfo.attribute("modAmount").as_double(1.0);
  std::vector<float> values(kBusCurvePoints);
  for (int i = 0; i < kBusCurvePoints; ++i) {
    const double input = amount * i / (kBusCurvePoints - 1);
    values[static_cast<size_t>(i)] = convertAttribute(*a, translation.number(input, 0.0, 1.0), slot.linear);
  }
  const auto add = [&](BusParam param, float scale) {
    BusParamLfo l{param, waveOf(lfo.attribute("shape").as_string("sine")), behaviorOf(lfo, binding),
                  static_cast<float>(lfo.attribute("frequency").as_double(1.0)),
                  static_cast<float>(lfo.attribute("delayTime").as_double(0.0)), values};
    for (float& v : l.curve) v *= scale;
    effect.lfos.push_back(std::move(l));
  };
  add(a->param, a->scale);
  if (a->param2) add(*a->param2, a->scale2);
}

void readLfo(const pugi::xml_node& lfo, const std::vector<EffectSlot>& slots, instrument::Instrument& out,
             instrument::Reporter& report) {
  for (const pugi::xml_node& b : lfo.children("binding")) {
    const std::string type = b.attribute("type").as_string(), level = b.attribute("level").as_string();
    if (type != "effect" || level != "instrument") continue;  // the voices' (dspreset/Modulators.h)
    const pugi::xml_attribute index = b.attribute("effectIndex") ? b.attribute("effectIndex") : b.attribute("position");
    const std::vector<std::string> tags = splitTags(b.attribute("tags").as_string());
    for (const EffectSlot* slot : slotsNamed(slots, index.as_int(tags.empty() ? 0 : -1), tags))
      if (slot->bus >= 0) bindLfo(lfo, b, *slot, out, report);
  }
}

}  // namespace

void readGlobalLfos(const pugi::xml_node& root, const std::vector<EffectSlot>& slots, instrument::Instrument& out,
                    instrument::Reporter& report) {
  for (const pugi::xml_node& m : root.child("modulators").children()) {
    const std::string kind = m.name();
    if (kind == "lfo" && std::string(m.attribute("scope").as_string("global")) == "global") {
      readLfo(m, slots, out, report);
      continue;
    }
    // Voice modulators play on the voices (dspreset/Modulators.h); an instrument effect
    // runs on the part's bus, which no voice's source reaches.
    for (const pugi::xml_node& b : m.children("binding"))
      if (std::string(b.attribute("type").as_string()) == "effect" && std::string(b.attribute("level").as_string()) == "instrument")
        notPlayed(report, out, "bindings of voice modulators (<" + kind + ">) to instrument effects are");
  }
}

}  // namespace spindle::dspreset
