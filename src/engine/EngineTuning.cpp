// Engine: part tunings from the control side (Engine::setPartTuning).
#include <algorithm>

#include "engine/EngineImpl.h"

namespace spindle::engine {

// The table travels by pointer and is copied into the part when the audio thread takes
// the command; until then it stays here, so the audio thread never reads freed memory.
bool Engine::setPartTuning(int part, const KeyTuning& tuning) {
  Impl& s = *impl_;
  const uint64_t taken = s.commandsTakenShared.load(std::memory_order_acquire);
  std::erase_if(s.lentTunings, [taken](const auto& lent) { return lent.first <= taken; });
  auto copy = std::make_unique<KeyTuning>(tuning);
  Command c;
  c.type = CommandType::SetPartTuning;
  c.part = static_cast<int8_t>(part);
  c.tuning = copy.get();
  if (!postCommand(c)) return false;
  s.lentTunings.emplace_back(s.commandsPosted, std::move(copy));
  return true;
}

}  // namespace spindle::engine
