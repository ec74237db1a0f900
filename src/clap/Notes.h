#pragma once
// Notes: the CLAP notes an instance plays, by note id, port, channel and key, for what
// CLAP says of a note beyond its MIDI bytes (Events.h):
//
//   NOTE_EXPRESSION ─► the note's note slot (engine/parts/Expression.h): claimed at its
//        first expression (a note-on with expressions at its own frame starts in it,
//        their values set first), the note's voices then read their bend, pressure, CC74,
//        CC1, CC11, gain and pan there, as an MPE member note's voices read its
//        member channel (tuning = the note's own bend, brightness = its CC74, pressure
//        = its channel pressure, vibrato = its CC1, expression = its CC11, volume and
//        pan its own gain and pan).
//   PARAM_MOD of a control (a library's labelled CC) naming notes (a note id, or a port,
//        channel or key; -1 matches any) ─► each such note's slot, claimed as an
//        expression claims it (a note-on with such a modulation at its own frame starts
//        in it): the note's value of the CC is the control's value plus the amount,
//        clamped to 0..127, sent as an offset on the part's value of the CC, which the
//        slot follows (engine midi::kSlotCcOffset). CLAP's polyphonic amount includes
//        the monophonic one, so a change of the part's value (the control set, or
//        modulated for the whole part) sends the modulated notes' offsets again.
//   NOTE_OFF / NOTE_CHOKE ─► also to the slot of a note that holds one.
//   after each chunk ─► NOTE_END (the note-on's id, port, channel, key) for each note
//        whose last voice finished; its slot is free again.
//
// engine::kNoteSlots notes hold a slot at once; a note's expression when all are held is
// ignored (its note sounds on as the part's). kCapacity notes are tracked at once; a
// note-on beyond them plays without expression or NOTE_END.
//
// Audio thread only (process, and flush for nothing here): fixed arrays, no allocation.
#include <array>
#include <cstdint>

#include <clap/clap.h>

#include "core/Realtime.h"
#include "engine/parts/Expression.h"
#include "plugin/Core.h"

namespace spindle::clap {

// A control as the notes' modulation reaches it (the audio thread's, kept by Plugin), in
// CC values 0..127: its MIDI CC (-1: none), the part's value when the library loaded,
// the value the host set (else that initial one) and the value the part holds now.
struct ModTarget {
  int cc = -1;
  float initial = 0.0f;
  float base = 0.0f;
  float part = 0.0f;
};
using ModTargets = std::array<ModTarget, plugin::kControlPorts>;
static_assert(plugin::kControlPorts <= 32, "Notes keeps a note's modulated controls as bits of a uint32_t");

class Notes {
 public:
  static constexpr int kCapacity = 256;

  void noteOn(const clap_event_note_t& note) noexcept SPINDLE_REALTIME;
  // A note-on (event `index` of the host's list) whose expressions follow it at its own
  // frame: the note starts in a slot with their values (as an MPE note whose channel's
  // bend and CC74 came before its note-on). False when it has none or no slot is free:
  // then it plays as noteOn() tracks it.
  bool startExpressive(plugin::Core& core, const clap_event_note_t& note, uint32_t offset,
                       const clap_input_events_t& list, uint32_t index) noexcept SPINDLE_REALTIME;
  // A note-off or choke of a key (not the every-key form): the slots of the notes it ends.
  void noteOff(plugin::Core& core, const clap_event_note_t& note, uint32_t offset) noexcept SPINDLE_REALTIME;
  void expression(plugin::Core& core, const clap_event_note_expression_t& event, uint32_t offset) noexcept
      SPINDLE_REALTIME;
  // The controls PARAM_MOD reaches: param `firstParam + n` is targets[n]. Main thread, once.
  void bindControls(const ModTargets& targets, clap_id firstParam) noexcept {
    targets_ = &targets;
    firstParam_ = firstParam;
  }
  // Whether a PARAM_MOD names notes (else it modulates the whole part: the Plugin's).
  static bool polyphonic(const clap_event_param_mod_t& event) noexcept {
    return event.note_id != -1 || event.port_index != -1 || event.channel != -1 || event.key != -1;
  }
  // A polyphonic PARAM_MOD of a control: its amount for each note it names.
  void modulate(plugin::Core& core, const clap_event_param_mod_t& event, uint32_t offset) noexcept SPINDLE_REALTIME;
  // Control n's part value or base moved: each note it modulates gets its offset again.
  void retarget(plugin::Core& core, std::size_t n, uint32_t offset) noexcept SPINDLE_REALTIME;
  // After a chunk ending at the block's frame `end`: NOTE_END for the notes that ended.
  void chunkEnded(const plugin::Core& core, const clap_output_events_t* out, uint32_t end) noexcept
      SPINDLE_REALTIME;
  int tracked() const noexcept { return count_; }
  void clear() noexcept;  // a new core: no note sounds

 private:
  struct Note {
    int32_t id = -1;
    int16_t port = 0, channel = 0, key = 0;
    int slot = -1;
    uint32_t modulated = 0;                          // bit n: control n has an amount
    std::array<float, plugin::kControlPorts> mod{};  // the amounts, in CC values
  };
  static Note noteFrom(const clap_event_note_t& note) noexcept SPINDLE_REALTIME;
  template <typename Event>
  static bool matches(const Note& note, const Event& event) noexcept SPINDLE_REALTIME;
  int claimSlot() noexcept SPINDLE_REALTIME;
  // The note's slot, claimed now (its sounding voices move into it) when it has none; -1: none free.
  int slotFor(plugin::Core& core, Note& note, uint32_t offset) noexcept SPINDLE_REALTIME;
  // Control `param`'s index when it is one with a CC, else -1.
  int controlOf(clap_id param) const noexcept SPINDLE_REALTIME;
  void setAmount(plugin::Core& core, Note& note, std::size_t n, double amount, uint32_t offset) noexcept
      SPINDLE_REALTIME;
  // The note expressions and polyphonic control modulations that follow event `index`
  // at its frame and match `note`, each to `act` (stops when act returns false).
  template <typename Act>
  void eventsWith(const Note& note, const clap_input_events_t& list, uint32_t index, Act act) const noexcept
      SPINDLE_REALTIME;

  std::array<Note, kCapacity> notes_{};  // [0, count_): the notes sounding
  int count_ = 0;
  std::array<bool, engine::kNoteSlots> slotHeld_{};
  const ModTargets* targets_ = nullptr;
  clap_id firstParam_ = 0;
};

}  // namespace spindle::clap
