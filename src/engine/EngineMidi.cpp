// MIDI semantics of the engine's parts: notes, release triggers, and the controller
// slots notes write (core/Controllers.h). Controllers, pedals and controller-started
// regions are in EngineControllers.cpp.
//
// Release triggers fire when the note really ends: at its note-off, or at sustain
// pedal up for notes released under the pedal (trigger=release); trigger=release_key
// fires at the note-off whatever the pedal. Their velocity is the note-on's, and
// rt_decay attenuates them by rt_decay dB per second the note was held. ARIA's
// segments go first: rt_decay1 dB/s for rt_decay1_time seconds, then rt_decay2 for
// rt_decay2_time... (a segment given no time lasts to the end); rt_decay after the last.
// CC123 (all notes off) releases every voice of the part, pedals or not; CC120 (all
// sound off) fades them within limits::kStealFadeSeconds.
#include <algorithm>
#include <cstdlib>
#include <utility>

#include "engine/EngineImpl.h"

namespace spindle::engine {

namespace {
// The MIDI channel a part's regions see (lochan/hichan): its own; the preview part's
// notes come on no channel and play as channel 1's would.
int noteChannel(int partIndex) noexcept SPINDLE_REALTIME { return partIndex < limits::kChannels ? partIndex : 0; }

// The release trigger's attenuation in dB after the note was held `seconds`.
float releaseDecayDb(const Region& r, double seconds) noexcept SPINDLE_REALTIME {
  double db = 0.0, left = seconds;
  for (size_t n = 0; n < r.rtDecayN.size() && left > 0.0; ++n) {
    if (r.rtDecayN[n] == 0.0f && r.rtDecayNTime[n] <= 0.0f) continue;  // not given
    const double span = r.rtDecayNTime[n] > 0.0f ? std::min(left, static_cast<double>(r.rtDecayNTime[n])) : left;
    db += static_cast<double>(r.rtDecayN[n]) * span;
    left -= span;
  }
  return static_cast<float>(db) + r.rtDecay * static_cast<float>(left);
}

}  // namespace

void Engine::Impl::handleMidi(const MidiEvent& e, uint64_t frame) noexcept SPINDLE_REALTIME {
  const int part = e.channel();
  const int d1 = e.data1 & 0x7F, d2 = e.data2 & 0x7F;
  if (e.status == midi::kTuneKey || e.status == midi::kTunePitchClass) return tune(e);
  if (midi::isClockMessage(e.status)) return clockEvent(e.status, frame);
  if (e.status == midi::kNoteSlot) return noteSlotEvent(e, frame);
  if (const int master = mpe.masterOf(part); master >= 0) return memberMessage(master, part, e, frame);
  switch (e.type()) {
    case midi::kNoteOn:
      if (d2 == 0) {
        noteOff(part, d1, frame);
      } else {
        noteOn(part, d1, d2, frame);
      }
      break;
    case midi::kNoteOff: noteOff(part, d1, frame, d2); break;
    case midi::kControlChange: controlChange(part, d1, d2, frame); break;
    case midi::kProgramChange:
      selectSlot(part, d1);
      parts[static_cast<size_t>(part)].programNumber = d1;
      parts[static_cast<size_t>(part)].choosePreset();
      break;
    case midi::kPitchBend: pitchBend(part, ((d2 << 7) | d1) - 8192); break;
    case midi::kChannelPressure:
      parts[static_cast<size_t>(part)].controllers.setMidi7(controllers::kChannelAftertouch, d1);
      break;
    case midi::kPolyPressure: polyPressure(part, d1, d2); break;
    default: break;
  }
  if (mpe.isMaster(part)) followZone(part);
  followNoteSlots(part);
}

void Engine::Impl::noteOn(int partIndex, int key, int velocity, uint64_t frame, int slot) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  const auto k = static_cast<size_t>(key);
  NoteExpression* own = slot >= 0 ? &expressions[static_cast<size_t>(slot)] : nullptr;
  if (part.program && part.program->isKeyswitch[k]) part.swLast = key;
  if (!part.keyDown[k]) {
    part.keyDown[k] = true;
    ++part.heldKeys;
  }
  part.previousVelocity = std::exchange(part.lastVelocity, velocity);
  writeNoteControllers(part, key, velocity);
  NoteContext note;
  if (own) startExpression(*own, part, k, slot, note);
  note.channel = noteChannel(partIndex);
  note.key = key;
  note.velocity = velocity;
  note.random = rng.uniform();
  note.sequence = part.sequenceCounter[k]++;
  note.otherKeysHeld = part.heldKeys - 1;
  note.previousVelocity = part.previousVelocity;
  note.tempo = tempo;
  note.sinceNoteOn = part.secondsSinceNoteOn(frame, config.sampleRate);
  part.anyNoteOn = true;
  part.lastNoteOnFrame = frame;
  part.noteVelocity[k] = static_cast<uint8_t>(velocity);
  part.noteOnFrame[k] = frame;
  part.noteSequence[k] = note.sequence;
  part.releasePending[k] = false;
  if (partIndex < limits::kChannels)
    openNoteStart(own && slot < MpeLayout::kChannels ? slot : partIndex, key, velocity);  // the channel the note came on
  else
    openStart = -1;  // the preview part's: no MIDI event to pair with
  const uint64_t before = notesStarted;
  startRegions(partIndex, note, frame);
  part.noteStartedVoices[k] = notesStarted != before;
  openStart = -1;
  part.previousNote = key;
}

// An MPE note (slot >= 0) ends its own voices; the key stays held for the part while
// another member channel of its zone holds it.
// An MPE note's slot: the zone's controllers as they are now (a program's set_cc
// included) with the note slots its note-on wrote; the note reads its controllers there.
void Engine::Impl::startExpression(NoteExpression& own, const Part& part, size_t key, int slot,
                                   NoteContext& note) noexcept SPINDLE_REALTIME {
  own.follow(part.controllers);
  own.keysDown[key] = true;
  own.takeNoteSlots(part.controllers);
  note.controllers = &own.controllers;
  note.expression = slot;
  note.ownBend = own.bend;
}

void Engine::Impl::noteOff(int partIndex, int key, uint64_t frame, int velocity, int slot) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  const auto k = static_cast<size_t>(key);
  if (slot >= 0) {
    NoteExpression& own = expressions[static_cast<size_t>(slot)];
    if (!own.keysDown[k]) return;
    own.keysDown[k] = false;
  } else if (!part.keyDown[k]) {
    return;
  }
  if (part.keyDown[k] && !zoneHolds(partIndex, key)) {
    part.keyDown[k] = false;
    --part.heldKeys;
  }
  part.controllers.setMidi7(controllers::kNoteOffVelocity, velocity);
  part.controllers.set(controllers::kNoteGate, part.heldKeys > 0 ? 1.0f : 0.0f);
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != partIndex || v.key() != key || v.expression() != slot || !v.keyDown) continue;
    v.keyDown = false;
    if (!v.sostenuto) holdOrRelease(part, v);
  }
  // trigger=release_key sounds now; trigger=release waits for the sustain pedal.
  if (part.sustain) part.releasePending[k] = true;
  fireReleaseTriggers(partIndex, key, frame, true, !part.sustain, slot);
}

void Engine::Impl::fireReleaseTriggers(int partIndex, int key, uint64_t frame, bool keyReleases,
                                       bool pedalReleases, int slot) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  const auto k = static_cast<size_t>(key);
  NoteContext note;
  if (slot >= 0) {
    note.controllers = &expressions[static_cast<size_t>(slot)].controllers;
    note.expression = slot;
    note.ownBend = expressions[static_cast<size_t>(slot)].bend;
  }
  note.channel = noteChannel(partIndex);
  note.key = key;
  note.velocity = part.noteVelocity[k];
  note.random = rng.uniform();
  note.sequence = part.noteSequence[k];
  note.otherKeysHeld = part.heldKeys;
  note.release = true;
  note.keyReleases = keyReleases;
  note.pedalReleases = pedalReleases;
  note.previousVelocity = part.previousVelocity;
  note.tempo = tempo;
  note.sinceNoteOn = part.secondsSinceNoteOn(frame, config.sampleRate);
  startRegions(partIndex, note, frame);
}

// Controllers 131 (velocity), 133 (key), 134 (gate), 135/136 (random), 137 (alternate),
// 140/141 (key delta) and 130 (this key's polyphonic aftertouch), before the regions
// are matched: conditions on them see this note.
void Engine::Impl::writeNoteControllers(Part& part, int key, int velocity) noexcept SPINDLE_REALTIME {
  mod::ControllerState& c = part.controllers;
  const int delta = part.previousNote >= 0 ? key - part.previousNote : 0;
  c.setMidi7(controllers::kNoteOnVelocity, velocity);
  c.setMidi7(controllers::kNoteNumber, key);
  c.set(controllers::kNoteGate, 1.0f);
  c.set(controllers::kRandomUnipolar, noteRng.uniform());
  c.set(controllers::kRandomBipolar, noteRng.uniform());
  c.set(controllers::kAlternate, c.value(controllers::kAlternate) >= 0.5f ? 0.0f : 1.0f);
  c.set(controllers::kKeyDelta, 0.5f + static_cast<float>(delta) / 254.0f);
  c.setMidi7(controllers::kKeyDeltaAbsolute, std::abs(delta));
  c.setMidi7(controllers::kPolyAftertouch, part.polyAftertouch[static_cast<size_t>(key)]);
}

void Engine::Impl::pitchBend(int partIndex, int value) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  part.bend = value;
  // Centre 0.5 exactly; -8192 -> 0, +8191 -> 1.
  const float unit = static_cast<float>(value) / (value < 0 ? 8192.0f : 8191.0f);
  part.controllers.set(controllers::kPitchBend, 0.5f + 0.5f * unit);
}

void Engine::Impl::polyPressure(int partIndex, int key, int value) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  part.polyAftertouch[static_cast<size_t>(key)] = static_cast<uint8_t>(value);
  part.controllers.setMidi7(controllers::kPolyAftertouch, value);
}

void Engine::Impl::startRegions(int partIndex, const NoteContext& note, uint64_t frame) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  std::array<const Region*, RegionMatcher::kMaxRegionsPerEvent> found{};
  const int count = RegionMatcher::select(part, note, found.data(), static_cast<int>(found.size()));
  startFound(partIndex, note, found.data(), count, frame);
}

void Engine::Impl::startFound(int partIndex, const NoteContext& note, const Region* const* found, int count,
                              uint64_t frame) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  const bool anyKey = note.ccTrigger || note.key < 0 || note.key >= KeyTuning::kKeys;
  if (!anyKey && !part.tuning.plays(note.key)) return;  // a keyboard map's unmapped key
  // Choke first, so that the voices this event starts never choke one another.
  for (int i = 0; i < count; ++i) pool.choke(partIndex, found[i]->group);
  if (note.ccTrigger) {
    for (int i = 0; i < count; ++i) {
      NoteContext own = note;
      own.key = RegionMatcher::triggerKey(*found[i]);
      startVoice(partIndex, own, *found[i], 0.0f, frame);
    }
    return;
  }
  const double heldSeconds =
      static_cast<double>(frame - part.noteOnFrame[static_cast<size_t>(note.key)]) / config.sampleRate;
  // rt_dead=off: a release trigger needs the note's voices still sounding (if it had any).
  const bool sustainEnded =
      note.release && part.noteStartedVoices[static_cast<size_t>(note.key)] && !pool.sounding(partIndex, note.key);
  for (int i = 0; i < count; ++i) {
    const Region& r = *found[i];
    if (sustainEnded && !r.rtDead) continue;
    const float extraDb = note.release ? -releaseDecayDb(r, heldSeconds) : 0.0f;
    startVoice(partIndex, note, r, extraDb, frame);
  }
}

void Engine::Impl::startVoice(int partIndex, const NoteContext& note, const Region& r, float extraDb,
                              uint64_t frame) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  const Program* program = part.program;
  const int32_t index = RegionMatcher::sampleIndex(r, part);
  if (index < 0 || static_cast<size_t>(index) >= program->samples.size()) return;
  const SampleData* sample = program->samples[static_cast<size_t>(index)];
  if (!sample) return;
  pool.enforceRegionPolyphony(partIndex, program, {note.key, note.velocity, note.expression}, r, voicesStolen);
  Voice& v = pool.acquire(voicesStolen);
  VoiceStart s;
  s.program = program;
  s.region = &r;
  s.sample = sample;
  s.part = partIndex;
  s.key = note.key;
  const bool tuned = !part.tuning.equal && note.key >= 0 && note.key < KeyTuning::kKeys;
  s.keyPosition = tuned ? part.tuning.position(note.key) : note.key;
  s.velocity = r.swVelPrevious && !note.ccTrigger ? note.previousVelocity : note.velocity;
  s.sampleRate = config.sampleRate;
  s.extraDb = extraDb;
  s.releaseTrigger = note.release;
  s.order = notesStarted;
  s.expression = note.expression;
  s.frame = frame;
  s.tempo = tempo;
  s.songBeat = beatAt(frame);
  if (!v.start(s, rng, scratch.source(), startMix(partIndex, note))) return;
  pool.commit(v);
  if (note.ccTrigger) v.keyDown = false;  // no key holds it: it plays out
  v.latchedPedal = part.sostenutoDown(r);  // a pedal already down latches nothing new
  ++notesStarted;
  if (openStart < 0) return;
  NoteStart& n = noteStartList[static_cast<size_t>(openStart)];
  if (n.voices++ == 0) {
    noteStartVoice[static_cast<size_t>(openStart)] = &v;
    ++noteStartsPending;
  }
}

// The mix a voice of `note` starts with: its part's, or an MPE note's own (noteMix).
PartMix Engine::Impl::startMix(int partIndex, const NoteContext& note) const noexcept SPINDLE_REALTIME {
  bool soloActive = false;
  for (const Part& p : parts) soloActive = soloActive || p.solo;
  // A solo mutes the other MIDI parts, never the preview part.
  const PartMix partMix = makePartMix(parts[static_cast<size_t>(partIndex)], soloActive && partIndex < limits::kChannels);
  return note.expression >= 0 ? noteMix(partMix, partIndex, note.expression) : partMix;
}

void Engine::Impl::allNotesOff(int partIndex) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != partIndex) continue;
    v.keyDown = v.pedalHeld = v.sostenuto = false;
    v.release();
  }
  part.keyDown.fill(false);
  if (mpe.isMaster(partIndex)) {
    for (int m = mpe.firstMember(partIndex); m <= mpe.lastMember(partIndex); ++m)
      expressions[static_cast<size_t>(m)].keysDown.fill(false);
  }
  part.releasePending.fill(false);
  part.heldKeys = 0;
  part.controllers.set(controllers::kNoteGate, 0.0f);
}

void Engine::Impl::allSoundOff(int partIndex) noexcept SPINDLE_REALTIME {
  allNotesOff(partIndex);
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() == partIndex) v.fade(limits::kStealFadeSeconds);
  }
}

}  // namespace spindle::engine
