// LiveControl, the parts' instrument effects: the list each load builds from its
// Program's bus layout (on the loader thread), the player's bypass flags (engine
// commands, kept in the session state as they are set), and the sends a session saves.
#include <cmath>

#include "app/LiveControl.h"
#include "core/Controllers.h"

namespace spindle::app {

void LiveControl::setInitialPartEffects(const BusLayout& layout) {
  const std::vector<PartEffectInfo> effects = spindle::partEffects(layout, 0);
  std::lock_guard lock(mutex_);
  for (auto& part : effects_) part = effects;
}

std::vector<PartEffectInfo> LiveControl::partEffects(int part) {
  std::lock_guard lock(mutex_);
  const auto p = static_cast<std::size_t>(part);
  std::vector<PartEffectInfo> list = effects_[p];
  for (PartEffectInfo& e : list) e.bypassed = effectBypassed(state_.parts[p].effectBypass, e.index);
  return list;
}

bool LiveControl::setPartEffectBypass(int part, int index, bool on) {
  {
    std::lock_guard lock(mutex_);
    if (index < 0 || index >= static_cast<int>(effects_[static_cast<std::size_t>(part)].size())) return true;
  }
  engine::Command command = partCommand(engine::CommandType::SetPartEffectBypass, part);
  command.count = index;
  command.flag = on;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  uint64_t& mask = state_.parts[static_cast<std::size_t>(part)].effectBypass;
  mask = withEffectBypass(mask, index, on);
  return true;
}

void LiveControl::addSends(control::SessionState& state) {
  for (int p = 0; p < control::kParts; ++p) {
    const std::array<float, 2> sends = partSends(p);
    control::PartSettings& part = state.parts[static_cast<std::size_t>(p)];
    part.reverbSend = static_cast<int>(std::lround(sends[0] * 127.0f));
    part.chorusSend = static_cast<int>(std::lround(sends[1] * 127.0f));
  }
}

}  // namespace spindle::app
