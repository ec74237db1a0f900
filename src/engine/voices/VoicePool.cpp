#include "engine/voices/VoicePool.h"

#include <algorithm>

#include "core/Limits.h"

namespace spindle::engine {

float VoicePool::chokeFadeSeconds(const Region& r) noexcept {
  return r.offMode == OffMode::Time ? r.offTime : limits::kStealFadeSeconds;
}

// off_curve=10: ARIA's exponential, level(u) = exp(off_shape * u) at u = t / off_time,
// normalised to end at 0 (the default off_shape -10.3616 = ln(10^(-90/20)): -90 dB at
// off_time); a lone off_shape selects it. Other off_curve numbers fade linearly.
float VoicePool::chokeFadeShape(const Region& r) noexcept SPINDLE_REALTIME {
  if (r.offMode != OffMode::Time) return 0.0f;
  const bool exponential = r.offCurve == 10.0f || (r.offCurve == -100.0f && r.offShape != 0.0f);
  if (!exponential) return 0.0f;
  return -(r.offShape != 0.0f ? r.offShape : -10.3616f);
}

int VoicePool::marginFor(int polyphony) noexcept { return std::clamp(polyphony / 4, 8, 128); }

VoicePool::VoicePool(int polyphony)
    : limit_(std::clamp(polyphony, 1, limits::kMaxVoices)), maxLimit_(limit_) {
  const int size = limit_ + marginFor(limit_);
  voices_.resize(static_cast<size_t>(size));
  active_.resize(static_cast<size_t>(size));
  free_.resize(static_cast<size_t>(size));
  for (int i = 0; i < size; ++i) free_[static_cast<size_t>(i)] = size - 1 - i;
  freeCount_ = size;
}

VoicePool::~VoicePool() {
  for (int i : activeIndices()) voices_[static_cast<size_t>(i)].finish();
}

void VoicePool::setLimit(int polyphony) noexcept SPINDLE_REALTIME {
  limit_ = std::clamp(polyphony, 1, maxLimit_);
}

Voice& VoicePool::acquire(uint64_t& stolen) noexcept SPINDLE_REALTIME {
  if (liveCount() >= limit_) {
    if (Voice* victim = pickVictim()) {
      victim->fade(limits::kStealFadeSeconds);
      ++stolen;
    }
  }
  collectFinished();
  if (freeCount_ == 0) cutQuietestFading();
  return voices_[static_cast<size_t>(free_[static_cast<size_t>(freeCount_ - 1)])];
}

void VoicePool::commit(Voice& v) noexcept SPINDLE_REALTIME {
  // v came from acquire(), which handed out the top of the free stack.
  const int index = static_cast<int>(&v - voices_.data());
  if (freeCount_ == 0 || free_[static_cast<size_t>(freeCount_ - 1)] != index) return;
  --freeCount_;
  active_[static_cast<size_t>(activeCount_++)] = index;
}

int VoicePool::liveCount() const noexcept SPINDLE_REALTIME {
  int live = 0;
  for (int i : activeIndices()) live += voices_[static_cast<size_t>(i)].fading() ? 0 : 1;
  return live;
}

Voice* VoicePool::pickVictim() noexcept SPINDLE_REALTIME {
  Voice* oldestReleased = nullptr;
  Voice* quietest = nullptr;
  for (int i : activeIndices()) {
    Voice& v = voices_[static_cast<size_t>(i)];
    if (!v.active() || v.fading()) continue;
    if (v.released() && (!oldestReleased || v.order() < oldestReleased->order())) oldestReleased = &v;
    if (!quietest || v.loudness() < quietest->loudness()) quietest = &v;
  }
  return oldestReleased ? oldestReleased : quietest;
}

void VoicePool::cutQuietestFading() noexcept SPINDLE_REALTIME {
  Voice* cut = nullptr;
  for (int i : activeIndices()) {
    Voice& v = voices_[static_cast<size_t>(i)];
    if (!cut || v.loudness() < cut->loudness()) cut = &v;
  }
  if (cut) cut->kill();
  collectFinished();
}

// What group polyphony (polyphony=) and note polyphony (note_polyphony=) count for a
// region about to start: the live voices of its part in its group, and of those the ones
// of its note (its key and MPE slot). A voice they stop fades and leaves both counts.
struct VoicePool::GroupScope {
  int part;
  StartingNote note;
  const Region& region;
  uint64_t& stolen;
  int inGroup = 0;
  int onNote = 0;

  bool holds(const Voice& v) const noexcept SPINDLE_REALTIME {
    return v.active() && !v.fading() && v.part() == part && v.region()->group == region.group;
  }
  bool sameNote(const Voice& v) const noexcept SPINDLE_REALTIME {
    return v.key() == note.key && v.expression() == note.expression;
  }
  void stop(Voice& v) noexcept SPINDLE_REALTIME {
    v.fade(chokeFadeSeconds(*v.region()), chokeFadeShape(*v.region()));
    ++stolen;
    --inGroup;
    onNote -= sameNote(v) ? 1 : 0;
  }
};

// Stops the oldest voices for which inScope holds (live ones) until fewer than `limit` remain.
template <class InScope>
void VoicePool::limitScope(int limit, InScope inScope, uint64_t& stolen) noexcept SPINDLE_REALTIME {
  if (limit < 0) return;
  int count = 0;
  for (int i : activeIndices()) {
    const Voice& v = voices_[static_cast<size_t>(i)];
    count += v.active() && !v.fading() && inScope(v) ? 1 : 0;
  }
  // active_ is in start order, so the first matches are the oldest.
  for (int k = 0; k < activeCount_ && count >= limit; ++k) {
    Voice& v = voices_[static_cast<size_t>(active_[static_cast<size_t>(k)])];
    if (!v.active() || v.fading() || !inScope(v)) continue;
    v.fade(chokeFadeSeconds(*v.region()), chokeFadeShape(*v.region()));
    ++stolen;
    --count;
  }
}

void VoicePool::enforceRegionPolyphony(int part, const Program* program, StartingNote note, const Region& r,
                                       uint64_t& stolen) noexcept SPINDLE_REALTIME {
  limitNestedScopes(part, program, r, stolen);
  if (r.polyphony < 0 && r.notePolyphony < 0) return;
  GroupScope group{part, note, r, stolen};
  for (int i : activeIndices()) {
    const Voice& v = voices_[static_cast<size_t>(i)];
    if (!group.holds(v)) continue;
    ++group.inGroup;
    group.onNote += group.sameNote(v) ? 1 : 0;
  }
  stopSelfMasked(group, note.velocity);
  stopOldestOverGroup(group);
}

// The limits of the program's nested scopes: instrument, master, group block, region.
void VoicePool::limitNestedScopes(int part, const Program* program, const Region& r,
                                  uint64_t& stolen) noexcept SPINDLE_REALTIME {
  const auto ours = [&](const Voice& v) noexcept SPINDLE_REALTIME {
    return v.part() == part && v.program() == program;
  };
  limitScope(r.instrumentPolyphony, ours, stolen);
  limitScope(r.masterPolyphony, [&](const Voice& v) noexcept SPINDLE_REALTIME {
    return ours(v) && v.region()->masterBlock == r.masterBlock;
  }, stolen);
  limitScope(r.groupBlockPolyphony, [&](const Voice& v) noexcept SPINDLE_REALTIME {
    return ours(v) && v.region()->groupBlock == r.groupBlock;
  }, stolen);
  limitScope(r.regionPolyphony, [&](const Voice& v) noexcept SPINDLE_REALTIME {
    return ours(v) && v.region() == &r;
  }, stolen);
}

// note_selfmask=on: same-note voices at or below this velocity, quietest (then
// oldest) first; a louder one is never cut by a softer note.
void VoicePool::stopSelfMasked(GroupScope& group, int velocity) noexcept SPINDLE_REALTIME {
  const Region& r = group.region;
  while (r.notePolyphony >= 0 && r.noteSelfmask && group.onNote >= r.notePolyphony) {
    Voice* quietest = nullptr;
    for (int i : activeIndices()) {
      Voice& v = voices_[static_cast<size_t>(i)];
      if (!group.holds(v) || !group.sameNote(v) || v.velocity() > velocity) continue;
      if (!quietest || v.velocity() < quietest->velocity()) quietest = &v;
    }
    if (!quietest) break;
    group.stop(*quietest);
  }
}

// Group polyphony, and note polyphony without note_selfmask: the oldest voices over the
// limit stop (active_ is in start order, so the first matches are the oldest).
void VoicePool::stopOldestOverGroup(GroupScope& group) noexcept SPINDLE_REALTIME {
  const Region& r = group.region;
  for (int i : activeIndices()) {
    Voice& v = voices_[static_cast<size_t>(i)];
    if (!group.holds(v)) continue;
    const bool overGroup = r.polyphony >= 0 && group.inGroup >= r.polyphony;
    const bool overNote =
        r.notePolyphony >= 0 && !r.noteSelfmask && group.sameNote(v) && group.onNote >= r.notePolyphony;
    if (overGroup || overNote) group.stop(v);
  }
}

bool VoicePool::sounding(int part, int key) const noexcept SPINDLE_REALTIME {
  for (int i = 0; i < activeCount_; ++i) {
    const Voice& v = voices_[static_cast<size_t>(active_[static_cast<size_t>(i)])];
    if (v.active() && v.part() == part && v.key() == key && !v.releaseTrigger()) return true;
  }
  return false;
}

void VoicePool::choke(int part, int64_t group) noexcept SPINDLE_REALTIME {
  for (int i : activeIndices()) {
    Voice& v = voices_[static_cast<size_t>(i)];
    const Region* r = v.region();
    if (!v.active() || v.part() != part || r->offBy == 0 || r->offBy != group) continue;
    if (r->offMode == OffMode::Normal) {
      v.release();
    } else {
      v.fade(chokeFadeSeconds(*r), chokeFadeShape(*r));
    }
  }
}

void VoicePool::collectFinished() noexcept SPINDLE_REALTIME {
  int kept = 0;
  for (int k = 0; k < activeCount_; ++k) {
    const int i = active_[static_cast<size_t>(k)];
    if (voices_[static_cast<size_t>(i)].active()) {
      active_[static_cast<size_t>(kept++)] = i;
    } else {
      voices_[static_cast<size_t>(i)].finish();  // its stream slot goes back to the disk thread
      free_[static_cast<size_t>(freeCount_++)] = i;
    }
  }
  activeCount_ = kept;
}

bool VoicePool::uses(const Program* p) const noexcept SPINDLE_REALTIME {
  for (int i : activeIndices()) {
    if (voices_[static_cast<size_t>(i)].program() == p) return true;
  }
  return false;
}

}  // namespace spindle::engine
