// EngineLink, the shared reverb and chorus: settings go to the audio thread as commands
// (the engine glides to them, engine/effects/Effects.h); the sends are MIDI controllers of the
// part's channel, through the window's own MIDI input like its keyboard. The parts'
// instrument effects: the player's bypass of each, an engine command.
#include <algorithm>
#include <cmath>

#include "core/MidiEvent.h"
#include "gui/EngineLink.h"

namespace spindle::gui {

void EngineLink::setEffect(EffectParam param, float value) {
  const auto& info = effectParamInfo(param);
  value = std::clamp(value, info.min, info.max);
  if (info.integer) value = std::round(value);
  engine::Command command;
  command.type = engine::CommandType::SetEffect;
  command.count = static_cast<int32_t>(param);
  command.value = value;
  effects_.set(param, value);
  post(command);
  emit effectsChanged();
}

void EngineLink::setSend(int part, int cc, int value) {
  const auto status = static_cast<uint8_t>(midi::kControlChange | std::clamp(part, 0, limits::kChannels - 1));
  sendMidi(status, static_cast<uint8_t>(cc), static_cast<uint8_t>(std::clamp(value, 0, 127)));
}

int EngineLink::send(int part, int cc) const {
  return static_cast<int>(std::lround(wiring_.engine->controllerValue(part, cc) * 127.0f));
}

void EngineLink::setEffectBypass(int part, int effect, bool on) {
  if (part < 0 || part >= limits::kChannels) return;
  PartInfo& info = parts_[index(part)];
  if (effect < 0 || effect >= static_cast<int>(info.effects.size()) || effect >= kBypassableEffects) return;
  engine::Command command;
  command.type = engine::CommandType::SetPartEffectBypass;
  command.part = static_cast<int8_t>(part);
  command.count = effect;
  command.flag = on;
  info.effectBypass = withEffectBypass(info.effectBypass, effect, on);
  post(command);
  emit partChanged(part);
}

std::vector<PartEffectInfo> EngineLink::partEffects(int part) const {
  const PartInfo& info = parts_[index(part)];
  std::vector<PartEffectInfo> list = info.effects;
  for (PartEffectInfo& e : list) e.bypassed = effectBypassed(info.effectBypass, e.index);
  return list;
}

}  // namespace spindle::gui
