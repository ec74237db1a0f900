// LiveControl, the shared reverb and chorus: their settings go to the audio thread as
// commands like every other setting; the sends are the parts' controllers.
#include "app/LiveControl.h"
#include "core/Controllers.h"

namespace spindle::app {

void LiveControl::setInitialEffects(const EffectValues& values) {
  std::lock_guard lock(mutex_);
  state_.effects = values;
}

bool LiveControl::setEffect(EffectParam param, float value) {
  engine::Command command = partCommand(engine::CommandType::SetEffect, 0);
  command.count = static_cast<int32_t>(param);
  command.value = value;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.effects.set(param, value);
  return true;
}

std::array<float, 2> LiveControl::partSends(int part) {
  return {engine_.controllerValue(part, controllers::kReverbSend), engine_.controllerValue(part, controllers::kChorusSend)};
}

}  // namespace spindle::app
