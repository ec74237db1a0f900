#include "engine/parts/RegionMatcher.h"

#include <algorithm>

namespace spindle::engine {

int RegionMatcher::select(const Part& part, const NoteContext& note, const Region** out, int capacity) noexcept
    SPINDLE_REALTIME {
  const Program* program = part.program;
  if (!program || note.key < 0 || note.key > 127) return 0;
  int count = 0;
  for (uint32_t index : program->regionsByKey[note.key]) {
    const Region& r = program->regions[index];
    if (count < capacity && conditionsHold(r, part, note)) out[count++] = &r;
  }
  return count;
}

int RegionMatcher::selectByController(const Part& part, const NoteContext& note, int cc, float before,
                                      const Region** out, int capacity) noexcept SPINDLE_REALTIME {
  const Program* program = part.program;
  if (!program) return 0;
  const float now = part.controllers.value(cc);
  int count = 0;
  for (uint32_t index : program->ccTriggered) {
    const Region& r = program->regions[index];
    bool crossed = false;
    for (const CcCondition& t : r.ccTriggers) {
      const bool inside = now >= t.lo && now <= t.hi, wasInside = before >= t.lo && before <= t.hi;
      crossed = crossed || (t.cc == cc && inside && !wasInside);
    }
    if (crossed && count < capacity && conditionsHold(r, part, note)) out[count++] = &r;
  }
  return count;
}

int RegionMatcher::triggerKey(const Region& r) noexcept SPINDLE_REALTIME {
  if (r.noKey) return r.pitchKeycenter;
  return std::clamp<int>(r.pitchKeycenter, r.lokey, r.hikey);
}

// An MPE note's own bend; any other note's, its part's (channel's).
int NoteContext::bend(const Part& part) const noexcept SPINDLE_REALTIME {
  return expression >= 0 ? ownBend : part.bend;
}

bool RegionMatcher::conditionsHold(const Region& r, const Part& part, const NoteContext& note) noexcept
    SPINDLE_REALTIME {
  if (!note.ccTrigger) {
    if (!r.ccTriggers.empty()) return false;
    const int velocity = r.swVelPrevious ? note.previousVelocity : note.velocity;
    if (note.key < r.lokey || note.key > r.hikey) return false;
    if (velocity < r.lovel || velocity > r.hivel) return false;
  }
  if (note.channel + 1 < r.lochan || note.channel + 1 > r.hichan) return false;
  if (note.bend(part) < r.lobend || note.bend(part) > r.hibend) return false;
  if (part.programNumber < r.loprog || part.programNumber > r.hiprog) return false;
  if (r.preset >= 0 && r.preset != part.preset) return false;
  if (note.sinceNoteOn < static_cast<double>(r.lotimer) || note.sinceNoteOn > static_cast<double>(r.hitimer)) return false;
  if (!controllersHold(r, part, note)) return false;
  const bool inRand = note.random >= r.lorand && (note.random < r.hirand || r.hirand >= 1.0f);
  if (!inRand) return false;
  if (r.seqLength > 1 && (note.sequence % r.seqLength) + 1 != r.seqPosition) return false;
  return triggerHolds(r, note) && keyswitchHolds(r, part);
}

int32_t RegionMatcher::sampleIndex(const Region& r, const Part& part) noexcept SPINDLE_REALTIME {
  if (r.reverseSampleIndex < 0) return r.sampleIndex;
  for (const CcCondition& c : r.reverseCcs) {
    const float value = part.controllers.value(c.cc);
    if (value < c.lo || value > c.hi) return r.sampleIndex;
  }
  return r.reverseSampleIndex;
}

bool RegionMatcher::controllersHold(const Region& r, const Part& part, const NoteContext& note) noexcept
    SPINDLE_REALTIME {
  const mod::ControllerState& cc = note.controllers ? *note.controllers : part.controllers;
  for (const CcCondition& c : r.ccConditions) {
    const float value = cc.value(c.cc);
    if (value < c.lo || value > c.hi) return false;
  }
  const int chanaft = cc.midi7(controllers::kChannelAftertouch);
  if (chanaft < r.lochanaft || chanaft > r.hichanaft) return false;
  const int polyaft = note.key >= 0 && note.key < 128 ? part.polyAftertouch[static_cast<size_t>(note.key)] : 0;
  if (polyaft < r.lopolyaft || polyaft > r.hipolyaft) return false;
  return note.tempo >= r.lobpm && (note.tempo < r.hibpm || r.hibpm >= 500.0f);
}

bool RegionMatcher::triggerHolds(const Region& r, const NoteContext& note) noexcept SPINDLE_REALTIME {
  switch (r.trigger) {
    case Trigger::Attack: return !note.release;
    case Trigger::Release: return note.release && note.pedalReleases;
    case Trigger::ReleaseKey: return note.release && note.keyReleases;
    case Trigger::First: return !note.release && note.otherKeysHeld == 0;
    case Trigger::Legato: return !note.release && note.otherKeysHeld > 0;
  }
  return false;
}

bool RegionMatcher::keyswitchHolds(const Region& r, const Part& part) noexcept SPINDLE_REALTIME {
  if (r.swLast >= 0 && part.swLast != r.swLast) return false;
  // The parser sets both bounds or neither, lo <= hi; swLast -1 (none yet) is below any.
  if (r.swLolast >= 0 && (part.swLast < r.swLolast || part.swLast > r.swHilast)) return false;
  if (r.swDown >= 0 && r.swDown < 128 && !part.keyDown[static_cast<size_t>(r.swDown)]) return false;
  if (r.swUp >= 0 && r.swUp < 128 && part.keyDown[static_cast<size_t>(r.swUp)]) return false;
  if (r.swPrevious >= 0 && part.previousNote != r.swPrevious) return false;
  return true;
}

}  // namespace spindle::engine
