#include "clap/Notes.h"

#include <algorithm>
#include <cmath>

#include "clap/Events.h"

namespace spindle::clap {

namespace {

// The part a CLAP note plays (Events.h: a wildcard channel is channel 1).
int partOf(int16_t channel) noexcept { return channel >= 0 && channel < 16 ? channel : 0; }

midi::NoteSlotAction slotAction(clap_note_expression id) noexcept {
  switch (id) {
    case CLAP_NOTE_EXPRESSION_VOLUME: return midi::kSlotVolume;
    case CLAP_NOTE_EXPRESSION_PAN: return midi::kSlotPan;
    case CLAP_NOTE_EXPRESSION_TUNING: return midi::kSlotTuning;
    case CLAP_NOTE_EXPRESSION_VIBRATO: return midi::kSlotVibrato;
    case CLAP_NOTE_EXPRESSION_EXPRESSION: return midi::kSlotExpression;
    case CLAP_NOTE_EXPRESSION_BRIGHTNESS: return midi::kSlotBrightness;
    case CLAP_NOTE_EXPRESSION_PRESSURE: return midi::kSlotPressure;
    default: return midi::kSlotClaim;  // none
  }
}

}  // namespace

// CLAP: a note id of -1 names no note; then port, channel and key choose, -1 matching any.
template <typename Event>
bool Notes::matches(const Note& note, const Event& event) noexcept SPINDLE_REALTIME {
  if (event.note_id != -1) return note.id == event.note_id;
  return (event.port_index == -1 || event.port_index == note.port) &&
         (event.channel == -1 || event.channel == note.channel) && (event.key == -1 || event.key == note.key);
}

Notes::Note Notes::noteFrom(const clap_event_note_t& note) noexcept SPINDLE_REALTIME {
  Note own;
  own.id = note.note_id;
  own.port = note.port_index;
  own.channel = note.channel;
  own.key = note.key;
  return own;
}

void Notes::noteOn(const clap_event_note_t& note) noexcept SPINDLE_REALTIME {
  if (count_ == kCapacity || note.key < 0 || note.key > 127) return;
  notes_[static_cast<std::size_t>(count_++)] = noteFrom(note);
}

// The host's event list is real-time safe by CLAP's contract, though its pointers carry
// no effect (as in Plugin.cpp).
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
template <typename Act>
void Notes::eventsWith(const Note& note, const clap_input_events_t& list, uint32_t index, Act act) const noexcept
    SPINDLE_REALTIME {
  const clap_event_header_t* on = list.get(&list, index);
  const uint32_t count = list.size(&list);
  for (uint32_t i = index + 1; on && i < count; ++i) {
    const clap_event_header_t* event = list.get(&list, i);
    if (!event) continue;
    if (event->time != on->time) return;
    if (event->space_id != CLAP_CORE_EVENT_SPACE_ID) continue;
    if (event->type == CLAP_EVENT_NOTE_EXPRESSION && event->size >= sizeof(clap_event_note_expression_t)) {
      if (matches(note, reinterpret_cast<const clap_event_note_expression_t&>(*event)) && !act(*event)) return;
    } else if (event->type == CLAP_EVENT_PARAM_MOD && event->size >= sizeof(clap_event_param_mod_t)) {
      const auto& mod = reinterpret_cast<const clap_event_param_mod_t&>(*event);
      if (polyphonic(mod) && controlOf(mod.param_id) >= 0 && matches(note, mod) && !act(*event)) return;
    }
  }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

bool Notes::startExpressive(plugin::Core& core, const clap_event_note_t& note, uint32_t offset,
                            const clap_input_events_t& list, uint32_t index) noexcept SPINDLE_REALTIME {
  if (count_ == kCapacity || note.key < 0 || note.key > 127) return false;
  Note own = noteFrom(note);
  bool expressive = false;
  eventsWith(own, list, index, [&](const clap_event_header_t&) noexcept {
    expressive = true;
    return false;  // one is enough
  });
  if (!expressive || (own.slot = claimSlot()) < 0) return false;
  const int part = partOf(own.channel);
  core.addNoteSlot(offset, part, own.slot, own.key, midi::kSlotReserve, 0.0f);
  eventsWith(own, list, index, [&](const clap_event_header_t& event) noexcept {
    if (event.type == CLAP_EVENT_PARAM_MOD) {
      const auto& mod = reinterpret_cast<const clap_event_param_mod_t&>(event);
      setAmount(core, own, static_cast<std::size_t>(controlOf(mod.param_id)), mod.amount, offset);
      return true;
    }
    const auto& expression = reinterpret_cast<const clap_event_note_expression_t&>(event);
    const midi::NoteSlotAction action = slotAction(expression.expression_id);
    if (action != midi::kSlotClaim && std::isfinite(expression.value))
      core.addNoteSlot(offset, part, own.slot, own.key, action, static_cast<float>(expression.value));
    return true;
  });
  core.addNoteSlot(offset, part, own.slot, own.key, midi::kSlotNoteOn, midiVelocity(note.velocity, 1));
  notes_[static_cast<std::size_t>(count_++)] = own;
  return true;
}

void Notes::noteOff(plugin::Core& core, const clap_event_note_t& note, uint32_t offset) noexcept SPINDLE_REALTIME {
  const bool choke = note.header.type == CLAP_EVENT_NOTE_CHOKE;
  const auto velocity = choke ? -1.0f : static_cast<float>(midiVelocity(note.velocity, 0));
  for (int n = 0; n < count_; ++n) {
    const Note& own = notes_[static_cast<std::size_t>(n)];
    if (own.slot >= 0 && matches(own, note))
      core.addNoteSlot(offset, partOf(own.channel), own.slot, own.key, midi::kSlotNoteOff, velocity);
  }
}

void Notes::expression(plugin::Core& core, const clap_event_note_expression_t& event, uint32_t offset) noexcept
    SPINDLE_REALTIME {
  const midi::NoteSlotAction action = slotAction(event.expression_id);
  if (action == midi::kSlotClaim || !std::isfinite(event.value)) return;
  for (int n = 0; n < count_; ++n) {
    Note& own = notes_[static_cast<std::size_t>(n)];
    if (matches(own, event) && slotFor(core, own, offset) >= 0)
      core.addNoteSlot(offset, partOf(own.channel), own.slot, own.key, action, static_cast<float>(event.value));
  }
}

void Notes::modulate(plugin::Core& core, const clap_event_param_mod_t& event, uint32_t offset) noexcept
    SPINDLE_REALTIME {
  const int control = controlOf(event.param_id);
  if (control < 0 || !polyphonic(event)) return;
  for (int n = 0; n < count_; ++n)
    if (Note& own = notes_[static_cast<std::size_t>(n)]; matches(own, event))
      setAmount(core, own, static_cast<std::size_t>(control), event.amount, offset);
}

void Notes::retarget(plugin::Core& core, std::size_t n, uint32_t offset) noexcept SPINDLE_REALTIME {
  if (!targets_ || n >= targets_->size()) return;
  for (int i = 0; i < count_; ++i)
    if (Note& own = notes_[static_cast<std::size_t>(i)]; (own.modulated >> n & 1u) != 0)
      setAmount(core, own, n, own.mod[n], offset);
}

// The note's value: the control's base plus the amount, clamped to the CC's range; the
// slot gets it as an offset on what the part holds.
void Notes::setAmount(plugin::Core& core, Note& note, std::size_t n, double amount, uint32_t offset) noexcept
    SPINDLE_REALTIME {
  if (!std::isfinite(amount) || slotFor(core, note, offset) < 0) return;
  const ModTarget& target = (*targets_)[n];
  note.mod[n] = static_cast<float>(std::clamp(amount, -127.0, 127.0));
  note.modulated |= 1u << n;
  const float value = std::clamp(target.base + note.mod[n], 0.0f, 127.0f);
  core.addNoteSlot(offset, partOf(note.channel), note.slot, target.cc, midi::kSlotCcOffset, value - target.part);
}

int Notes::slotFor(plugin::Core& core, Note& note, uint32_t offset) noexcept SPINDLE_REALTIME {
  if (note.slot >= 0) return note.slot;
  note.slot = claimSlot();
  if (note.slot >= 0) core.addNoteSlot(offset, partOf(note.channel), note.slot, note.key, midi::kSlotClaim, 0.0f);
  return note.slot;
}

int Notes::controlOf(clap_id param) const noexcept SPINDLE_REALTIME {
  if (!targets_ || param < firstParam_ || param - firstParam_ >= targets_->size()) return -1;
  const std::size_t n = param - firstParam_;
  return (*targets_)[n].cc >= 0 ? static_cast<int>(n) : -1;
}

void Notes::clear() noexcept {
  count_ = 0;
  slotHeld_.fill(false);
}

int Notes::claimSlot() noexcept SPINDLE_REALTIME {
  for (std::size_t s = 0; s < slotHeld_.size(); ++s)
    if (!slotHeld_[s]) {
      slotHeld_[s] = true;
      return static_cast<int>(s);
    }
  return -1;
}

// A note whose NOTE_END the host's full queue refused stays, and is said again after the
// next chunk. The host's event list is real-time safe by CLAP's contract, though its
// pointer carries no effect (as in Plugin.cpp).
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void Notes::chunkEnded(const plugin::Core& core, const clap_output_events_t* out, uint32_t end) noexcept
    SPINDLE_REALTIME {
  int kept = 0;
  for (int n = 0; n < count_; ++n) {
    const Note own = notes_[static_cast<std::size_t>(n)];
    bool ended = !core.noteSounding(partOf(own.channel), own.key, own.slot);
    if (ended && out) {
      clap_event_note_t event{};
      event.header = {sizeof event, end > 0 ? end - 1 : 0, CLAP_CORE_EVENT_SPACE_ID, CLAP_EVENT_NOTE_END, 0};
      event.note_id = own.id;
      event.port_index = own.port;
      event.channel = own.channel;
      event.key = own.key;
      ended = out->try_push(out, &event.header);
    }
    if (ended) {
      if (own.slot >= 0) slotHeld_[static_cast<std::size_t>(own.slot)] = false;
    } else {
      notes_[static_cast<std::size_t>(kept++)] = own;
    }
  }
  count_ = kept;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace spindle::clap
