#include "dspreset/EffectBindings.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace spindle::dspreset {

namespace {

// The setting of position `p` that is the same binding as `like` (same parameter and effect).
const Setting* sameBinding(const std::vector<Setting>& position, const Setting& like) {
  for (const Setting& s : position)
    if (s.level == Setting::Level::Effect && s.attribute == like.attribute && s.effect == like.effect &&
        s.tags == like.tags)
      return &s;
  return nullptr;
}

// The attribute's index in its kind (for the slot's base value).
int indexIn(const EffectKind& kind, const EffectAttribute* a) {
  for (int i = 0; i < kind.count; ++i)
    if (&kind.attributes[i] == a) return i;
  return -1;  // ENABLED: loads on
}

void bindOne(const Control& c, const Setting& binding, const EffectSlot& slot, instrument::Instrument& out,
             instrument::Reporter& report) {
  const EffectAttribute* a = boundAttribute(*slot.kind, binding.attribute);
  if (!a) {
    if (report.firstTime("effect binding " + binding.attribute + " " + std::string(slot.kind->type)))
      report.warning(out.path.string(), 0,
                     "bindings to " + binding.attribute + " of a " + std::string(slot.kind->type) +
                         " effect not played (ignored): the effect has no such parameter in Spindle");
    return;
  }
  const int at = indexIn(*slot.kind, a);
  const float base = at < 0 ? 0.0f : slot.base[static_cast<size_t>(at)];
  std::vector<float> delta(kBusCurvePoints, 0.0f);
  for (int cc = 0; cc < kBusCurvePoints; ++cc) {
    const Setting* s = sameBinding(c.positions[static_cast<size_t>(c.positionOf(cc))], binding);
    if (s) delta[static_cast<size_t>(cc)] = boundValue(*a, s->value, slot.linear) - base;
  }
  BusEffect& effect = out.buses.effects[static_cast<size_t>(slot.bus)];
  const auto add = [&](BusParam param, float scale) {
    BusParamCurve curve{param, static_cast<uint16_t>(c.cc), delta};
    for (float& v : curve.points) v *= scale;
    effect.curves.push_back(std::move(curve));
  };
  add(a->param, a->scale);
  if (a->param2) add(*a->param2, a->scale2);
}

}  // namespace

float boundValue(const EffectAttribute& a, const std::string& text, bool linear) {
  if (a.convert == EffectAttribute::Convert::Enabled)
    return convertAttribute(a, isTrue(text) || std::atof(text.c_str()) != 0.0 ? 1.0 : 0.0, linear);
  return convertAttribute(a, std::atof(text.c_str()), linear);
}

void bindEffects(const std::vector<Control>& controls, const std::vector<EffectSlot>& slots,
                 instrument::Instrument& out, instrument::Reporter& report) {
  for (const Control& c : controls) {
    std::vector<Setting> seen;
    for (const std::vector<Setting>& position : c.positions)
      for (const Setting& s : position) {
        if (s.level != Setting::Level::Effect || sameBinding(seen, s)) continue;
        seen.push_back(s);
        const std::vector<const EffectSlot*> named = slotsNamed(slots, s.effect, s.tags);
        if (named.empty() && report.firstTime("effect binding to none " + s.attribute))
          report.warning(out.path.string(), 0,
                         "bindings to " + s.attribute + " of effect " +
                             (s.tags.empty() ? std::to_string(s.effect) : "tagged " + s.tags.front()) +
                             " not played (ignored): <effects> has no such effect");
        for (const EffectSlot* slot : named)
          if (slot->bus >= 0) bindOne(c, s, *slot, out, report);
      }
  }
}

}  // namespace spindle::dspreset
