// Controllers of the engine's parts: MIDI CCs into Part::controllers, the pedals, the
// regions a controller starts (on_locc/on_hicc) and reset-all-controllers.
//
// Pedals are per region: a voice follows its own region's sustain_cc / sostenuto_cc,
// down at value >= sustain_lo / sostenuto_lo (sustain_sw / sostenuto_sw = off: that
// pedal does not act on it). A note-off while its sustain pedal is down leaves the
// voice sounding (pedalHeld) until the pedal goes up. Sostenuto latches the voices
// whose keys are down when its pedal goes down; they ignore their note-off until it
// goes up. Release triggers of notes released under the pedal wait for the part's
// sustain pedal (Program::sustainCc, the first region's) to go up.
#include <algorithm>

#include "engine/EngineImpl.h"

namespace spindle::engine {

void Engine::Impl::controlChange(int partIndex, int cc, int value, uint64_t frame) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  const float before = part.controllers.value(cc);
  const float beforeMsb = cc >= 32 && cc < 64 ? part.controllers.value(cc - 32) : 0.0f;
  part.setMidiController(cc, value);
  // The MPE Configuration Message: RPN 6 on channel 1 (lower zone) or 16 (upper).
  const bool zoneMaster = partIndex == 0 || partIndex == MpeLayout::kChannels - 1;
  if (cc == midi::kCcDataEntry && part.rpn == 6 && zoneMaster) configureZone(partIndex != 0, value);
  switch (cc) {
    case midi::kCcAllSoundOff: allSoundOff(partIndex); break;
    case midi::kCcAllNotesOff: allNotesOff(partIndex); break;
    case midi::kCcResetControllers:
      part.resetControllers(false);
      part.applyDefaults(true);
      pedalsMoved(partIndex, -1, frame);
      return;
    default: break;
  }
  controllerMoved(partIndex, cc, before, frame);
  // A 14-bit LSB moves its MSB's controller too.
  const Program* p = part.program;
  if (p && cc >= 32 && cc < 64 && p->highResolutionCc[static_cast<size_t>(cc - 32)]) {
    controllerMoved(partIndex, cc - 32, beforeMsb, frame);
  }
}

// After controller cc changed from `before`: pedals and controller-started regions.
void Engine::Impl::controllerMoved(int partIndex, int cc, float before, uint64_t frame) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  if (!part.program) return;
  if (part.program->pedalCc[static_cast<size_t>(cc)]) pedalsMoved(partIndex, cc, frame);
  if (!part.program->ccTriggered.empty()) startByController(partIndex, cc, before, frame);
  stopByController(partIndex, cc);
}

// stop_locc/stop_hicc, as the reference words it: a message of controller cc with a
// value in the region's range stops the region: its voices of the part are released,
// pedals or not (the same value sent again finds them released already).
void Engine::Impl::stopByController(int partIndex, int cc) noexcept SPINDLE_REALTIME {
  const float now = parts[static_cast<size_t>(partIndex)].controllers.value(cc);
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != partIndex) continue;
    for (const CcCondition& s : v.region()->stopCcs) {
      if (s.cc == cc && now >= s.lo && now <= s.hi) {
        v.keyDown = v.pedalHeld = v.sostenuto = false;
        v.release();
      }
    }
  }
}

void Engine::Impl::startByController(int partIndex, int cc, float before, uint64_t frame) noexcept SPINDLE_REALTIME {
  const Part& part = parts[static_cast<size_t>(partIndex)];
  NoteContext note;
  note.channel = partIndex;
  note.key = -1;
  // Full velocity whatever the controller's value or the last note's: what sfizz plays
  // (measured: CC64=0 and CC64=127 starts sound alike with amp_veltrack=100).
  note.velocity = 127;
  note.random = rng.uniform();
  note.otherKeysHeld = part.heldKeys;
  note.previousVelocity = part.previousVelocity;
  note.tempo = tempo;
  note.sinceNoteOn = part.secondsSinceNoteOn(frame, config.sampleRate);
  note.ccTrigger = true;
  std::array<const Region*, RegionMatcher::kMaxRegionsPerEvent> found{};
  const int count =
      RegionMatcher::selectByController(part, note, cc, before, found.data(), static_cast<int>(found.size()));
  if (count > 0) startFound(partIndex, note, found.data(), count, frame);
}

// Pedal controller cc moved (-1: any may have, after reset-all-controllers). Sostenuto
// latches on its way down; voices whose pedals are now up are let go.
void Engine::Impl::pedalsMoved(int partIndex, int cc, uint64_t frame) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  for (int i = 0; i < pool.activeCount(); ++i) {
    Voice& v = pool.activeVoice(i);
    if (v.part() != partIndex) continue;
    const Region& r = *v.region();
    const bool sostenuto = part.sostenutoDown(r);
    if (sostenuto && r.sostenutoCc == cc && !v.latchedPedal) v.sostenuto = v.keyDown;
    v.latchedPedal = sostenuto;
    if (v.sostenuto && !sostenuto) {
      v.sostenuto = false;
      if (!v.keyDown) holdOrRelease(part, v);
    }
    if (v.pedalHeld && !v.sostenuto && !part.sustainDown(r)) {
      v.pedalHeld = false;
      v.noteOff();
    }
  }
  refreshPartPedal(partIndex, frame);
}

// The part's sustain pedal (release triggers); pedal up fires the pending ones.
void Engine::Impl::refreshPartPedal(int partIndex, uint64_t frame) noexcept SPINDLE_REALTIME {
  Part& part = parts[static_cast<size_t>(partIndex)];
  const Program* p = part.program;
  const bool wasDown = part.sustain;
  part.sustain = p && part.controllers.value(p->sustainCc) >= p->sustainLo;
  part.sostenuto = part.controllers.value(midi::kCcSostenuto) >= 0.5f / 127.0f;
  if (part.sustain || !wasDown) return;
  for (int key = 0; key < 128; ++key) {
    const auto k = static_cast<size_t>(key);
    if (!part.releasePending[k] || part.keyDown[k]) continue;
    part.releasePending[k] = false;
    fireReleaseTriggers(partIndex, key, frame, false, true);
  }
}

// A voice whose key went up (or whose sostenuto let go): held by its sustain pedal, or released.
void Engine::Impl::holdOrRelease(const Part& part, Voice& v) noexcept SPINDLE_REALTIME {
  if (part.sustainDown(*v.region())) {
    v.pedalHeld = true;
  } else {
    v.noteOff();
  }
}

}  // namespace spindle::engine
