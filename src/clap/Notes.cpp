#include "clap/Notes.h"

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

void Notes::noteOn(const clap_event_note_t& note) noexcept SPINDLE_REALTIME {
  if (count_ == kCapacity || note.key < 0 || note.key > 127) return;
  notes_[static_cast<std::size_t>(count_++)] = {note.note_id, note.port_index, note.channel, note.key, -1};
}

// The host's event list is real-time safe by CLAP's contract, though its pointers carry
// no effect (as in Plugin.cpp).
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
template <typename Act>
void Notes::expressionsWith(const Note& note, const clap_input_events_t& list, uint32_t index, Act act) noexcept
    SPINDLE_REALTIME {
  const clap_event_header_t* on = list.get(&list, index);
  const uint32_t count = list.size(&list);
  for (uint32_t i = index + 1; on && i < count; ++i) {
    const clap_event_header_t* event = list.get(&list, i);
    if (!event) continue;
    if (event->time != on->time) return;
    if (event->space_id != CLAP_CORE_EVENT_SPACE_ID || event->type != CLAP_EVENT_NOTE_EXPRESSION ||
        event->size < sizeof(clap_event_note_expression_t))
      continue;
    const auto& expression = reinterpret_cast<const clap_event_note_expression_t&>(*event);
    if (matches(note, expression) && !act(expression)) return;
  }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

bool Notes::startExpressive(plugin::Core& core, const clap_event_note_t& note, uint32_t offset,
                            const clap_input_events_t& list, uint32_t index) noexcept SPINDLE_REALTIME {
  if (count_ == kCapacity || note.key < 0 || note.key > 127) return false;
  Note own{note.note_id, note.port_index, note.channel, note.key, -1};
  bool expressive = false;
  expressionsWith(own, list, index, [&](const clap_event_note_expression_t&) noexcept {
    expressive = true;
    return false;  // one is enough
  });
  if (!expressive || (own.slot = claimSlot()) < 0) return false;
  const int part = partOf(own.channel);
  core.addNoteSlot(offset, part, own.slot, own.key, midi::kSlotReserve, 0.0f);
  expressionsWith(own, list, index, [&](const clap_event_note_expression_t& expression) noexcept {
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
    if (!matches(own, event)) continue;
    if (own.slot < 0) {
      own.slot = claimSlot();
      if (own.slot < 0) continue;
      core.addNoteSlot(offset, partOf(own.channel), own.slot, own.key, midi::kSlotClaim, 0.0f);
    }
    core.addNoteSlot(offset, partOf(own.channel), own.slot, own.key, action, static_cast<float>(event.value));
  }
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
