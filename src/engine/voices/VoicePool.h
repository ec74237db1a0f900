#pragma once
// VoicePool: every Voice the engine will ever use, allocated in the constructor,
// and the policies for taking one: polyphony limit, stealing, group polyphony,
// note polyphony and off_by choking. Audio thread only, except the constructor.
//
// Steal margin: the pool holds polyphony + margin voices. A stolen voice fades for
// limits::kStealFadeSeconds before it is free, so the new note takes a spare voice
// from the margin and starts at its exact frame instead of waiting for the fade.
// Only "live" voices (not fading) count against the polyphony limit. If even the
// margin is used up (a burst of more than `margin` steals inside one fade time),
// the fading voice closest to silence is cut at once.
//
// Victim order when the limit is reached: the oldest released voice; if none is
// released, the quietest (envelope level times static gain).
#include <cstdint>
#include <span>
#include <vector>

#include "core/Realtime.h"
#include "engine/voices/Voice.h"

namespace spindle::engine {

class VoicePool {
 public:
  static int marginFor(int polyphony) noexcept;
  // The fade of a voice of region r choked by off_by or by group/note polyphony.
  static float chokeFadeSeconds(const Region& r) noexcept SPINDLE_REALTIME;
  // Its curve (Envelope::fastRelease's shape): off_curve=10 bends it by off_shape.
  static float chokeFadeShape(const Region& r) noexcept SPINDLE_REALTIME;
  explicit VoicePool(int polyphony);
  // Releases the disk streams of voices still playing (the audio thread has stopped).
  ~VoicePool();
  VoicePool(const VoicePool&) = delete;
  VoicePool& operator=(const VoicePool&) = delete;

  int capacity() const noexcept { return static_cast<int>(voices_.size()); }
  int limit() const noexcept { return limit_; }
  void setLimit(int polyphony) noexcept SPINDLE_REALTIME;

  // A free voice, stealing first if the live count is at the limit. Never null.
  // `stolen` is incremented per stolen voice.
  Voice& acquire(uint64_t& stolen) noexcept SPINDLE_REALTIME;
  // Marks the voice taken by the last acquire() as playing (after Voice::start() succeeded).
  void commit(Voice& v) noexcept SPINDLE_REALTIME;

  // A voice of this part and key, not a release trigger, still sounds (rt_dead).
  bool sounding(int part, int key) const noexcept SPINDLE_REALTIME;
  // The note a region is about to start for: note polyphony (note_polyphony,
  // note_selfmask) counts the voices of its key and its MPE expression slot (-1: none),
  // so the same key on another member channel is another note.
  struct StartingNote {
    int key = 0, velocity = 0, expression = -1;
  };
  // The polyphony limits (Region::instrumentPolyphony... polyphony) and note polyphony
  // of region r of `program` about to start on `part`.
  void enforceRegionPolyphony(int part, const Program* program, StartingNote note, const Region& r,
                              uint64_t& stolen) noexcept SPINDLE_REALTIME;
  // off_by: voices on `part` whose region has off_by == group stop: off_mode=fast fades
  // in limits::kStealFadeSeconds, off_mode=time in off_time, off_mode=normal releases.
  void choke(int part, int64_t group) noexcept SPINDLE_REALTIME;

  // Drops voices that finished during the last render from the active list.
  void collectFinished() noexcept SPINDLE_REALTIME;
  int activeCount() const noexcept { return activeCount_; }
  Voice& activeVoice(int i) noexcept { return voices_[static_cast<size_t>(active_[static_cast<size_t>(i)])]; }
  const Voice& activeVoice(int i) const noexcept { return voices_[static_cast<size_t>(active_[static_cast<size_t>(i)])]; }
  bool uses(const Program* p) const noexcept SPINDLE_REALTIME;

 private:
  std::span<const int> activeIndices() const noexcept SPINDLE_REALTIME {
    return {active_.data(), static_cast<size_t>(activeCount_)};
  }
  int liveCount() const noexcept SPINDLE_REALTIME;
  template <class InScope>
  void limitScope(int limit, InScope inScope, uint64_t& stolen) noexcept SPINDLE_REALTIME;
  void limitNestedScopes(int part, const Program* program, const Region& r, uint64_t& stolen) noexcept SPINDLE_REALTIME;
  struct GroupScope;
  void stopSelfMasked(GroupScope& group, int velocity) noexcept SPINDLE_REALTIME;
  void stopOldestOverGroup(GroupScope& group) noexcept SPINDLE_REALTIME;
  Voice* pickVictim() noexcept SPINDLE_REALTIME;
  void cutQuietestFading() noexcept SPINDLE_REALTIME;

  // Sized once; the counts say how much of each is in use (no push_back on the audio thread).
  std::vector<Voice> voices_;
  std::vector<int> active_;  // [0, activeCount_): indices of playing voices, in start order
  std::vector<int> free_;    // [0, freeCount_): stack of free indices
  int activeCount_ = 0;
  int freeCount_ = 0;
  int limit_;
  int maxLimit_;  // the configured polyphony; SetPolyphony may lower the limit, not raise it past this
};

}  // namespace spindle::engine
