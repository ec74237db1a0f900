// Engine: part tunings from the control side (Engine::setPartTuning) and from MIDI
// Tuning Standard messages, as tuning events at their frame (core/MidiTuning.h).
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

void Engine::Impl::tune(const MidiEvent& e) noexcept SPINDLE_REALTIME {
  const bool realtime = e.data2 != 0;
  for (int p = 0; p < limits::kChannels; ++p) {
    if (((e.parts >> p) & 1U) == 0) continue;
    if (e.status == midi::kTuneKey) {
      retuneKey(p, e.data1 & 0x7F, static_cast<double>(e.cents), realtime);
      continue;
    }
    for (int key = e.data1 % 12; key < KeyTuning::kKeys; key += 12)
      retuneKey(p, key, 100.0 * key + static_cast<double>(e.cents), realtime);
  }
}

// An MTS message gives the key a pitch: it plays, even where a keyboard map had it unmapped.
void Engine::Impl::retuneKey(int partIndex, int key, double cents, bool realtime) noexcept SPINDLE_REALTIME {
  KeyTuning& tuning = parts[static_cast<size_t>(partIndex)].tuning;
  tuning.setKey(key, cents);
  if (!realtime) return;
  const double position = tuning.position(key);
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() == partIndex && v.key() == key) v.retune(position);
  }
}

}  // namespace spindle::engine
