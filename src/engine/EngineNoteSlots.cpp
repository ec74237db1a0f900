// Note slots (parts/Expression.h): a plugin host's note claims one at its first note
// expression or modulation, and from then on its voices read their controllers (with the
// note's own CC offsets), bend, gain and pan there, as an MPE member note's voices read
// its member channel's slot. The adapter (src/clap) chooses the slot, keeps it while the
// note sounds and sends the note's note-off to it (midi::kNoteSlot events).
//
// A note whose expressions come with its note-on starts in its slot (reserved, its
// values set, then its note-on), as an MPE note starts on its member channel. A later
// claim takes the part's voices of the key that have no slot yet: a note played twice
// on one key and part before its first expression shares the slot with the earlier one.
#include <algorithm>
#include <cmath>

#include "engine/EngineImpl.h"

namespace spindle::engine {

namespace {

// A note-off of velocity below 0 (a CLAP choke): the note's voices in its slot fade
// within limits::kStealFadeSeconds, as CC120's do.
void chokeSlot(VoicePool& pool, int slot, int key) noexcept SPINDLE_REALTIME {
  for (int i = 0; i < pool.activeCount(); ++i)
    if (Voice& v = pool.activeVoice(i); v.expression() == slot && v.key() == key) v.fade(limits::kStealFadeSeconds);
}

}  // namespace

void Engine::Impl::noteSlotEvent(const MidiEvent& e, uint64_t frame) noexcept SPINDLE_REALTIME {
  const int part = e.parts & 0x0F, key = e.data1 & 0x7F;
  const int slot = MpeLayout::kChannels + (e.parts >> 8);
  if (slot >= kExpressionSlots || !std::isfinite(e.cents)) return;
  NoteExpression& own = expressions[static_cast<size_t>(slot)];
  switch (e.data2) {
    case midi::kSlotClaim: claimSlot(part, slot, key); return;
    case midi::kSlotReserve: own.claim(part, parts[static_cast<size_t>(part)].controllers, key, false); return;
    case midi::kSlotNoteOn:
      if (own.part == part) noteOn(part, key, std::clamp(static_cast<int>(std::lround(e.cents)), 1, 127), frame, slot);
      return;
    case midi::kSlotNoteOff:
      if (own.part != part) return;
      noteOff(part, key, frame, std::clamp(static_cast<int>(std::lround(e.cents)), 0, 127), slot);
      if (e.cents < 0.0f) chokeSlot(pool, slot, key);
      return;
    case midi::kSlotCcOffset:
      if (own.part == part) own.modulate(e.data1 & 0x7F, e.cents / 127.0f);
      return;
    default:
      if (own.part == part) setSlotValue(own, e.data2, e.cents);
      return;
  }
}

void Engine::Impl::claimSlot(int partIndex, int slot, int key) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  bool down = false;
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != partIndex || v.key() != key || v.expression() >= 0) continue;
    v.setExpression(slot);
    down = down || v.keyDown;
  }
  expressions[static_cast<size_t>(slot)].claim(partIndex, part.controllers, key, down);
}

// The values as their MPE messages set them (a bend of the 48-semitone member range,
// 14 bits; pressure and CC74 as controller values 0..1), so a note slot's note and an
// MPE note moved alike sound alike.
void Engine::Impl::setSlotValue(NoteExpression& own, int action, float value) noexcept SPINDLE_REALTIME {
  const float unit = std::clamp(value, 0.0f, 1.0f);
  switch (action) {
    case midi::kSlotTuning: {
      const float bend = std::clamp(value * 100.0f / MpeLayout::kMemberRange, -1.0f, 1.0f);
      own.setBend(static_cast<int>(std::lround(bend * (bend < 0.0f ? 8192.0f : 8191.0f))));
      return;
    }
    case midi::kSlotVolume: own.gain = std::clamp(value, 0.0f, 4.0f); return;
    case midi::kSlotPan: own.pan = 2.0f * unit - 1.0f; return;
    case midi::kSlotVibrato:
      own.setOwn(1, unit);
      own.ownsModWheel = true;
      return;
    case midi::kSlotExpression:
      own.setOwn(11, unit);
      own.ownsExpression = true;
      return;
    case midi::kSlotBrightness: own.setOwn(NoteExpression::kTimbreCc, unit); return;
    case midi::kSlotPressure: own.controllers.set(controllers::kChannelAftertouch, unit); return;
    default: return;
  }
}

void Engine::Impl::followNoteSlots(int part) noexcept SPINDLE_REALTIME {
  const mod::ControllerState& controllers = parts[static_cast<size_t>(part)].controllers;
  for (int s = MpeLayout::kChannels; s < kExpressionSlots; ++s)
    if (NoteExpression& own = expressions[static_cast<size_t>(s)]; own.part == part) own.follow(controllers);
}

bool Engine::Impl::noteSounding(int part, int key, int slot) const noexcept SPINDLE_REALTIME {
  for (int i = 0; i < pool.activeCount(); ++i) {
    const Voice& v = pool.activeVoice(i);
    if (v.part() == part && v.key() == key && v.expression() == slot) return true;
  }
  return false;
}

bool Engine::noteSounding(int part, int key, int noteSlot) const noexcept SPINDLE_REALTIME {
  if (noteSlot >= kNoteSlots) return false;
  return impl_->noteSounding(part, key, noteSlot < 0 ? -1 : MpeLayout::kChannels + noteSlot);
}

}  // namespace spindle::engine
