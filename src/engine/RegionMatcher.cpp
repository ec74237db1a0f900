#include "engine/RegionMatcher.h"

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

bool RegionMatcher::conditionsHold(const Region& r, const Part& part, const NoteContext& note) noexcept
    SPINDLE_REALTIME {
  if (note.key < r.lokey || note.key > r.hikey) return false;
  if (note.velocity < r.lovel || note.velocity > r.hivel) return false;
  if (note.channel + 1 < r.lochan || note.channel + 1 > r.hichan) return false;
  if (part.bend < r.lobend || part.bend > r.hibend) return false;
  for (int i = 0; i < r.ccConditionCount && i < static_cast<int>(r.ccConditions.size()); ++i) {
    const CcCondition& c = r.ccConditions[static_cast<size_t>(i)];
    const uint8_t value = part.cc[c.cc & 0x7F];
    if (value < c.lo || value > c.hi) return false;
  }
  const bool inRand = note.random >= r.lorand && (note.random < r.hirand || r.hirand >= 1.0f);
  if (!inRand) return false;
  if (r.seqLength > 1 && (note.sequence % r.seqLength) + 1 != r.seqPosition) return false;
  return triggerHolds(r, note) && keyswitchHolds(r, part);
}

bool RegionMatcher::triggerHolds(const Region& r, const NoteContext& note) noexcept SPINDLE_REALTIME {
  switch (r.trigger) {
    case Trigger::Attack: return !note.release;
    case Trigger::Release: return note.release;
    case Trigger::First: return !note.release && note.otherKeysHeld == 0;
    case Trigger::Legato: return !note.release && note.otherKeysHeld > 0;
  }
  return false;
}

bool RegionMatcher::keyswitchHolds(const Region& r, const Part& part) noexcept SPINDLE_REALTIME {
  if (r.swLast >= 0 && part.swLast != r.swLast) return false;
  if (r.swDown >= 0 && r.swDown < 128 && !part.keyDown[static_cast<size_t>(r.swDown)]) return false;
  if (r.swUp >= 0 && r.swUp < 128 && part.keyDown[static_cast<size_t>(r.swUp)]) return false;
  if (r.swPrevious >= 0 && part.previousNote != r.swPrevious) return false;
  return true;
}

}  // namespace spindle::engine
