// MPE (MIDI Polyphonic Expression, RP-053) in the engine: the zones (parts/Expression.h),
// the member channels' messages and their notes' expression slots.
//
// A member channel's note-on and note-off play its zone's master part, the note's slot
// being the member channel; its pitch bend, channel pressure and CC74 are the note's
// own; RPN 0 on any member channel sets the zone's per-note bend range; CC120/CC123
// end the channel's notes, CC121 resets its expression; any other controller acts on
// the whole zone, as one on the master channel does. Program changes on a member
// channel are ignored: the zone plays its master's instrument.
#include <algorithm>
#include <cmath>

#include "engine/EngineImpl.h"

namespace spindle::engine {

void Engine::Impl::memberMessage(int master, int channel, const MidiEvent& e, uint64_t frame) noexcept
    SPINDLE_REALTIME {
  const int d1 = e.data1 & 0x7F, d2 = e.data2 & 0x7F;
  NoteExpression& own = expressions[static_cast<size_t>(channel)];
  switch (e.type()) {
    case midi::kNoteOn:
      if (d2 == 0) {
        noteOff(master, d1, frame, 0, channel);
      } else {
        noteOn(master, d1, d2, frame, channel);
      }
      break;
    case midi::kNoteOff: noteOff(master, d1, frame, d2, channel); break;
    case midi::kPitchBend: own.setBend(((d2 << 7) | d1) - 8192); break;
    case midi::kChannelPressure: own.controllers.setMidi7(controllers::kChannelAftertouch, d1); break;
    case midi::kPolyPressure: polyPressure(master, d1, d2); break;
    case midi::kControlChange: memberControl(master, channel, d1, d2, frame); break;
    default: break;
  }
}

void Engine::Impl::memberControl(int master, int channel, int cc, int value, uint64_t frame) noexcept
    SPINDLE_REALTIME {
  NoteExpression& own = expressions[static_cast<size_t>(channel)];
  switch (cc) {
    case NoteExpression::kTimbreCc: own.controllers.setMidi7(cc, value); return;
    case midi::kCcRpnMsb: own.rpn = (own.rpn & 0x7F) | (value << 7); return;
    case midi::kCcRpnLsb: own.rpn = (own.rpn & ~0x7F) | value; return;
    case midi::kCcNrpnMsb:
    case midi::kCcNrpnLsb: own.rpn = 0x3FFF; return;
    case midi::kCcDataEntry:
      if (own.rpn == 0) mpe.setMemberRange(master, static_cast<float>(value) * 100.0f);
      return;
    case midi::kCcDataEntryLsb:
      if (own.rpn == 0) {
        const float semitones = std::floor(mpe.memberRange(master) / 100.0f) * 100.0f;
        mpe.setMemberRange(master, semitones + static_cast<float>(std::min(value, 99)));
      }
      return;
    case midi::kCcAllSoundOff: memberNotesOff(master, channel, true); return;
    case midi::kCcAllNotesOff: memberNotesOff(master, channel, false); return;
    case midi::kCcResetControllers:
      own.setBend(0);
      own.controllers.set(controllers::kChannelAftertouch, 0.0f);
      own.controllers.setMidi7(NoteExpression::kTimbreCc, 64);
      return;
    default:
      controlChange(master, cc, value, frame);
      followZone(master);
      return;
  }
}

// CC123 (fade false) or CC120 (fade true) on a member channel: its notes end, pedals or not.
void Engine::Impl::memberNotesOff(int master, int channel, bool fade) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(master)];
  NoteExpression& own = expressions[static_cast<size_t>(channel)];
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != master || v.expression() != channel) continue;
    v.keyDown = v.pedalHeld = v.sostenuto = false;
    v.release();
    if (fade) v.fade(limits::kStealFadeSeconds);
  }
  for (int key = 0; key < 128; ++key) {
    const auto k = static_cast<size_t>(key);
    if (!own.keysDown[k]) continue;
    own.keysDown[k] = false;
    if (part.keyDown[k] && !zoneHolds(master, key)) {
      part.keyDown[k] = false;
      --part.heldKeys;
    }
  }
}

// A zone that changes: the notes of its master part end (its member channels change
// meaning), the master's bend range is 2 semitones again, and the member slots start
// from the zone's controllers. The same configuration again only resets the zone's
// per-note bend range (MpeLayout::configure).
void Engine::Impl::configureZone(bool upper, int members) noexcept SPINDLE_REALTIME {
  const int lowerBefore = mpe.members(false), upperBefore = mpe.members(true);
  mpe.configure(upper, members);
  const int masters[2] = {0, MpeLayout::kChannels - 1};
  const bool changed[2] = {mpe.members(false) != lowerBefore, mpe.members(true) != upperBefore};
  if (!changed[0] && !changed[1]) return;
  for (int z = 0; z < 2; ++z) {
    if (!changed[z]) continue;
    allNotesOff(masters[z]);
    if (mpe.members(z == 1) > 0) parts[static_cast<size_t>(masters[z])].bendRange = MpeLayout::kMasterRange;
  }
  for (int c = 0; c < MpeLayout::kChannels; ++c) {
    const int master = mpe.masterOf(c);
    expressions[static_cast<size_t>(c)].reset(parts[static_cast<size_t>(master >= 0 ? master : c)].controllers);
  }
}

void Engine::Impl::followZone(int master) noexcept SPINDLE_REALTIME {
  const mod::ControllerState& zone = parts[static_cast<size_t>(master)].controllers;
  for (int m = mpe.firstMember(master); m <= mpe.lastMember(master); ++m) expressions[static_cast<size_t>(m)].follow(zone);
}

bool Engine::Impl::zoneHolds(int master, int key) const noexcept SPINDLE_REALTIME {
  if (!mpe.isMaster(master)) return false;
  for (int m = mpe.firstMember(master); m <= mpe.lastMember(master); ++m)
    if (expressions[static_cast<size_t>(m)].keysDown[static_cast<size_t>(key)]) return true;
  return false;
}

// Each member channel's lowest held key and its expression, for a keyboard to draw.
void Engine::Impl::publishMpeNotes() noexcept SPINDLE_REALTIME {
  for (int c = 0; c < MpeLayout::kChannels; ++c) {
    const auto slot = static_cast<size_t>(c);
    const NoteExpression& own = expressions[slot];
    const int master = mpe.masterOf(c);
    const auto down = std::find(own.keysDown.begin(), own.keysDown.end(), true);
    const int key = master >= 0 && down != own.keysDown.end() ? static_cast<int>(down - own.keysDown.begin()) : -1;
    shared.mpeKey[slot].store(key + 1, std::memory_order_relaxed);
    if (key < 0) continue;
    shared.mpeValues[slot][0].store(own.bendCents(mpe.memberRange(master)), std::memory_order_relaxed);
    shared.mpeValues[slot][1].store(own.controllers.value(controllers::kChannelAftertouch), std::memory_order_relaxed);
    shared.mpeValues[slot][2].store(own.controllers.value(NoteExpression::kTimbreCc), std::memory_order_relaxed);
  }
}

PartMix Engine::Impl::noteMix(const PartMix& partMix, int part, int slot) const noexcept SPINDLE_REALTIME {
  const NoteExpression& own = expressions[static_cast<size_t>(slot)];
  PartMix mix = partMix;
  mix.controllers = &own.controllers;
  if (slot < MpeLayout::kChannels) {
    mix.noteBend = own.bendCents(mpe.memberRange(part));
    return mix;
  }
  mix.noteBend = own.bendCents(MpeLayout::kMemberRange);
  mix.gain *= own.gain;
  mix.baseGain *= own.gain;
  mix.pan = std::clamp(mix.pan + own.pan, -1.0f, 1.0f);
  return mix;
}

}  // namespace spindle::engine
