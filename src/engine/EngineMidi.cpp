// MIDI semantics of the engine's parts: notes, release triggers, pedals, controllers.
//
// Pedals: a note-off while the sustain pedal is down leaves the voice sounding
// (pedalHeld) until the pedal goes up. Sostenuto latches the voices whose keys are
// down when the pedal goes down; they ignore their note-off until it goes up.
// Release triggers fire when the note really ends: at its note-off, or at sustain
// pedal up for notes released under the pedal. Their velocity is the note-on's, and
// rt_decay attenuates them by rt_decay dB per second the note was held.
// CC123 (all notes off) releases every voice of the part, pedals or not; CC120 (all
// sound off) fades them within limits::kStealFadeSeconds.
#include <algorithm>

#include "engine/EngineImpl.h"

namespace spindle::engine {

void Engine::Impl::handleMidi(const MidiEvent& e, uint64_t frame) noexcept SPINDLE_REALTIME {
  const int part = e.channel();
  const int d1 = e.data1 & 0x7F, d2 = e.data2 & 0x7F;
  switch (e.type()) {
    case midi::kNoteOn:
      if (d2 == 0) {
        noteOff(part, d1, frame);
      } else {
        noteOn(part, d1, d2, frame);
      }
      break;
    case midi::kNoteOff: noteOff(part, d1, frame); break;
    case midi::kControlChange: controlChange(part, d1, d2, frame); break;
    case midi::kProgramChange: selectSlot(part, d1); break;
    case midi::kPitchBend: parts[static_cast<size_t>(part)].bend = ((d2 << 7) | d1) - 8192; break;
    default: break;
  }
}

void Engine::Impl::noteOn(int partIndex, int key, int velocity, uint64_t frame) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  const auto k = static_cast<size_t>(key);
  if (part.program && part.program->isKeyswitch[k]) part.swLast = key;
  if (!part.keyDown[k]) {
    part.keyDown[k] = true;
    ++part.heldKeys;
  }
  NoteContext note;
  note.channel = partIndex;
  note.key = key;
  note.velocity = velocity;
  note.random = rng.uniform();
  note.sequence = part.sequenceCounter[k]++;
  note.otherKeysHeld = part.heldKeys - 1;
  part.noteVelocity[k] = static_cast<uint8_t>(velocity);
  part.noteOnFrame[k] = frame;
  part.noteSequence[k] = note.sequence;
  part.releasePending[k] = false;
  openNoteStart(partIndex, key, velocity);
  startRegions(partIndex, note, frame);
  openStart = -1;
  part.previousNote = key;
}

void Engine::Impl::noteOff(int partIndex, int key, uint64_t frame) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  const auto k = static_cast<size_t>(key);
  if (!part.keyDown[k]) return;
  part.keyDown[k] = false;
  --part.heldKeys;
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != partIndex || v.key() != key || !v.keyDown) continue;
    v.keyDown = false;
    if (v.sostenuto) continue;
    if (part.sustain) {
      v.pedalHeld = true;
    } else {
      v.noteOff();
    }
  }
  if (part.sustain) {
    part.releasePending[k] = true;
  } else {
    fireReleaseTriggers(partIndex, key, frame);
  }
}

void Engine::Impl::fireReleaseTriggers(int partIndex, int key, uint64_t frame) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  const auto k = static_cast<size_t>(key);
  NoteContext note;
  note.channel = partIndex;
  note.key = key;
  note.velocity = part.noteVelocity[k];
  note.random = rng.uniform();
  note.sequence = part.noteSequence[k];
  note.otherKeysHeld = part.heldKeys;
  note.release = true;
  startRegions(partIndex, note, frame);
}

void Engine::Impl::startRegions(int partIndex, const NoteContext& note, uint64_t frame) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  std::array<const Region*, RegionMatcher::kMaxRegionsPerEvent> found{};
  const int count = RegionMatcher::select(part, note, found.data(), static_cast<int>(found.size()));
  // Choke first, so that the voices this event starts never choke one another.
  for (int i = 0; i < count; ++i) pool.choke(partIndex, found[static_cast<size_t>(i)]->group);
  const double heldSeconds =
      static_cast<double>(frame - part.noteOnFrame[static_cast<size_t>(note.key)]) / config.sampleRate;
  for (int i = 0; i < count; ++i) {
    const Region& r = *found[static_cast<size_t>(i)];
    const float extraDb = note.release ? -r.rtDecay * static_cast<float>(heldSeconds) : 0.0f;
    startVoice(partIndex, note, r, extraDb);
  }
}

void Engine::Impl::startVoice(int partIndex, const NoteContext& note, const Region& r, float extraDb) noexcept
    SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  const Program* program = part.program;
  if (r.sampleIndex < 0 || static_cast<size_t>(r.sampleIndex) >= program->samples.size()) return;
  const SampleData* sample = program->samples[static_cast<size_t>(r.sampleIndex)];
  if (!sample) return;
  pool.enforceRegionPolyphony(partIndex, note.key, r, voicesStolen);
  Voice& v = pool.acquire(voicesStolen);
  VoiceStart s;
  s.program = program;
  s.region = &r;
  s.sample = sample;
  s.part = partIndex;
  s.key = note.key;
  s.velocity = note.velocity;
  s.sampleRate = config.sampleRate;
  s.extraDb = extraDb;
  s.releaseTrigger = note.release;
  s.order = notesStarted;
  bool soloActive = false;
  for (const Part& p : parts) soloActive = soloActive || p.solo;
  const PartMix mix{part.mixGain(soloActive), part.mixPan(), part.bend};
  if (!v.start(s, rng, scratch.source(), mix)) return;
  pool.commit(v);
  ++notesStarted;
  if (openStart < 0) return;
  NoteStart& n = noteStartList[static_cast<size_t>(openStart)];
  if (n.voices++ == 0) {
    noteStartVoice[static_cast<size_t>(openStart)] = &v;
    ++noteStartsPending;
  }
}

void Engine::Impl::controlChange(int partIndex, int cc, int value, uint64_t frame) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  part.cc[static_cast<size_t>(cc)] = static_cast<uint8_t>(value);
  switch (cc) {
    case midi::kCcSustain: sustainPedal(partIndex, value >= 64, frame); break;
    case midi::kCcSostenuto: sostenutoPedal(partIndex, value >= 64); break;
    case midi::kCcAllSoundOff: allSoundOff(partIndex); break;
    case midi::kCcAllNotesOff: allNotesOff(partIndex); break;
    case midi::kCcResetControllers:
      sustainPedal(partIndex, false, frame);
      sostenutoPedal(partIndex, false);
      part.resetControllers(false);
      break;
    default: break;
  }
}

void Engine::Impl::sustainPedal(int partIndex, bool down, uint64_t frame) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  const bool wasDown = part.sustain;
  part.sustain = down;
  if (down || !wasDown) return;
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != partIndex || !v.pedalHeld || v.sostenuto) continue;
    v.pedalHeld = false;
    v.noteOff();
  }
  for (int key = 0; key < 128; ++key) {
    const auto k = static_cast<size_t>(key);
    if (!part.releasePending[k] || part.keyDown[k]) continue;
    part.releasePending[k] = false;
    fireReleaseTriggers(partIndex, key, frame);
  }
}

void Engine::Impl::sostenutoPedal(int partIndex, bool down) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  const bool wasDown = part.sostenuto;
  part.sostenuto = down;
  if (down == wasDown) return;
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != partIndex) continue;
    if (down) {
      v.sostenuto = v.keyDown;
    } else if (v.sostenuto) {
      v.sostenuto = false;
      if (v.keyDown) continue;
      if (part.sustain) {
        v.pedalHeld = true;
      } else {
        v.noteOff();
      }
    }
  }
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
  part.releasePending.fill(false);
  part.heldKeys = 0;
}

void Engine::Impl::allSoundOff(int partIndex) noexcept SPINDLE_REALTIME {
  allNotesOff(partIndex);
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() == partIndex) v.fade(limits::kStealFadeSeconds);
  }
}

}  // namespace spindle::engine
