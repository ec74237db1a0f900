#include "control/OscEffects.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "control/ControlCore.h"
#include "core/Controllers.h"
#include "core/EffectParams.h"
#include "core/MidiEvent.h"

namespace spindle::control {

namespace {

constexpr double kPart = 16.0;

// Paths and descriptions live as long as the table (oscApi() keeps it for good).
struct EffectTexts {
  std::array<std::string, kEffectParams> paths, docs;
};

const EffectTexts& effectTexts() {
  static const EffectTexts texts = [] {
    EffectTexts t;
    for (const auto& info : kEffectParamTable) {
      const auto k = static_cast<size_t>(info.id);
      const std::string effect(info.effect), setting(info.setting);
      t.paths[k] = "/spindle/" + effect + "/" + setting;
      const std::string what = info.toggle ? "turns the shared " + effect + " on (1) or off (0)"
                               : info.fluidName.empty() ? "sets the " + effect + " " + setting + " of the main output"
                                                        : "sets the shared " + effect + "'s " + setting;
      const std::string origin = info.fluidName.empty() ? "" : "FluidSynth's " + std::string(info.fluidName) + ", ";
      t.docs[k] = what + " (" + origin + "default " + formatEffectValue(info.id, info.def) +
                  (info.unit.empty() ? "" : " " + std::string(info.unit)) + "); /spindle/" + effect + " reads it back";
    }
    return t;
  }();
  return texts;
}

template <size_t I>
void setEffect(OscCall& c) {
  const EffectParam param = kEffectParamTable[I].id;
  const float value = c.real(0);
  if (!effectValueValid(param, value)) {  // the table's range check lets a fraction through to a count
    c.core.error(std::string(kEffectParamTable[I].setting) + " must be " + effectRangeText(param));
    return;
  }
  c.core.commandResult(c.core.target().setEffect(param, value), true);
}

// One reply per effect: its settings in the table's order, toggles and counts as i.
void replyEffect(OscCall& c, std::string_view effect) {
  const EffectValues values = c.core.target().sessionState().effects;
  OscMessage m{"/spindle/" + std::string(effect), {}};
  for (const auto& info : kEffectParamTable) {
    if (info.effect != effect) continue;
    const float v = values.get(info.id);
    m.args.push_back(info.integer ? OscValue::i(static_cast<int>(std::lround(v))) : OscValue::f(static_cast<double>(v)));
  }
  c.core.reply(m);
}
void reverbQuery(OscCall& c) { replyEffect(c, "reverb"); }
void chorusQuery(OscCall& c) { replyEffect(c, "chorus"); }
void masterQuery(OscCall& c) { replyEffect(c, "master"); }

void sendLevel(OscCall& c, int cc) {
  const auto status = static_cast<uint8_t>(midi::kControlChange | (c.integer(0) - 1));
  c.core.commandResult(c.core.target().sendMidi(status, static_cast<uint8_t>(cc), static_cast<uint8_t>(c.integer(1))),
                       false);
}
void partReverb(OscCall& c) { sendLevel(c, controllers::kReverbSend); }
void partChorus(OscCall& c) { sendLevel(c, controllers::kChorusSend); }
void partSends(OscCall& c) {
  const auto sends = c.core.target().partSends(c.integer(0) - 1);
  c.core.reply({"/spindle/part/sends", {OscValue::i(c.integer(0)), OscValue::i(static_cast<int>(std::lround(sends[0] * 127.0f))),
                                        OscValue::i(static_cast<int>(std::lround(sends[1] * 127.0f)))}});
}

// The float the table holds as the double it was written as (0.1f reads 0.1, not
// 0.10000000149), for the ranges /spindle/help and the error replies print.
double written(float v) {
  const std::string text = formatEffectValue(EffectParam::ReverbLevel, v);
  return std::strtod(text.c_str(), nullptr);
}

template <size_t... I>
std::vector<OscEntry> settingEntries(std::index_sequence<I...>) {
  const EffectTexts& t = effectTexts();
  const auto arg = [](const EffectParamInfo& info) {
    return ArgSpec{info.integer ? 'i' : 'f', info.toggle ? "on" : info.integer ? "voices" : "value",
                   written(info.min), written(info.max)};
  };
  return {OscEntry{t.paths[I].c_str(), {arg(kEffectParamTable[I])}, t.docs[I].c_str(), setEffect<I>}...};
}

}  // namespace

std::vector<OscEntry> effectsApi() {
  const ArgSpec part{'i', "part", 1, kPart};
  std::vector<OscEntry> api = settingEntries(std::make_index_sequence<kEffectParams>());
  api.push_back({"/spindle/reverb", {}, "replies /spindle/reverb: the shared reverb's settings", reverbQuery});
  api.push_back({"/spindle/chorus", {}, "replies /spindle/chorus: the shared chorus's settings", chorusQuery});
  api.push_back({"/spindle/master", {}, "replies /spindle/master: the master stage's settings", masterQuery});
  api.push_back({"/spindle/part/reverb", {part, {'i', "level", 0, 127}},
                 "the part's reverb send (CC91 on its channel)", partReverb});
  api.push_back({"/spindle/part/chorus", {part, {'i', "level", 0, 127}},
                 "the part's chorus send (CC93 on its channel)", partChorus});
  api.push_back({"/spindle/part/sends", {part}, "replies /spindle/part/sends: the part's reverb and chorus sends",
                 partSends});
  return api;
}

std::vector<OscReplyDoc> effectsReplies() {
  return {
      {"/spindle/reverb", "iffff", "the shared reverb: on (1) or off (0), room-size, damping, width, level"},
      {"/spindle/chorus", "iifff", "the shared chorus: on (1) or off (0), voices, level, speed (Hz), depth (ms)"},
      {"/spindle/master", "f", "the master gain of the main output (dB), after the reverb and chorus"},
      {"/spindle/part/sends", "iii", "part, its reverb send (CC91) and chorus send (CC93), 0..127"},
  };
}

}  // namespace spindle::control
