#include "control/OscPartEffects.h"

#include <string>

#include "control/ControlCore.h"

namespace spindle::control {

namespace {

// One message: the part, then number (1..), type, bus, bypassed (0/1) per effect.
void partEffects(OscCall& c) {
  OscMessage m{"/spindle/part/effects", {OscValue::i(c.integer(0))}};
  for (const PartEffectInfo& e : c.core.target().partEffects(c.integer(0) - 1)) {
    m.args.push_back(OscValue::i(e.index + 1));
    m.args.push_back(OscValue::s(e.type));
    m.args.push_back(OscValue::s(busName(e.bus)));
    m.args.push_back(OscValue::i(e.bypassed ? 1 : 0));
  }
  c.core.reply(m);
}

void effectBypass(OscCall& c) {
  const int part = c.integer(0), effect = c.integer(1);
  const auto count = static_cast<int>(c.core.target().partEffects(part - 1).size());
  if (effect > count) {
    c.core.error("part " + std::to_string(part) + " has no effect " + std::to_string(effect) + " (its instrument has " +
                 std::to_string(count) + (count == 1 ? " effect)" : " effects)"));
    return;
  }
  c.core.commandResult(c.core.target().setPartEffectBypass(part - 1, effect - 1, c.integer(2) != 0), true);
}

}  // namespace

std::vector<OscEntry> partEffectsApi() {
  const ArgSpec part{'i', "part", 1, kParts};
  return {
      {"/spindle/part/effects", {part},
       "replies one /spindle/part/effects message: the part's instrument effects (its SFZ effect blocks or DecentSampler effects) in file order, "
       "each with its bus and whether it is bypassed",
       partEffects},
      {"/spindle/part/effect/bypass", {part, {'i', "effect", 1, kBypassableEffects}, {'i', "on", 0, 1}},
       "bypasses (1) or plays again (0) effect N (from 1, as /spindle/part/effects numbers them) of the part's "
       "instrument, with a 5 ms crossfade (the first 64 effects); loading another instrument clears the flags",
       effectBypass},
  };
}

std::vector<OscReplyDoc> partEffectsReplies() {
  return {{"/spindle/part/effects", "i(issi)...",
           "part, then for each effect of its instrument: its number (from 1), type (gain, eq, filter, ...), bus "
           "(main, fx1..fx4), bypassed (1) or not (0); only the part when it has none"}};
}

}  // namespace spindle::control
