#pragma once
// NoteMarks: what the on-screen keyboard draws of MPE (engine/parts/Expression.h) for
// the selected part, read from the engine's stats: the zone the part is the master of
// (its member channels) and each member channel's sounding note with its own bend,
// pressure and timbre. Plain values, computed on the gui thread.
#include <vector>

#include "engine/Commands.h"
#include "engine/parts/Expression.h"

namespace spindle::gui {

// A zone's member channels, 0-based [first, last]; off when first > last.
struct MpeChannels {
  int first = 1, last = 0;
  bool on() const noexcept { return first <= last; }
};

struct NoteMark {
  int key = -1;
  int channel = 0;           // the member channel, 0-based
  float bendSemitones = 0.0f;  // the note's own bend
  float pressure = 0.0f, timbre = 0.0f;  // 0..1
};

// The zone whose master channel is `part` (part 1: lower, part 16: upper), as the engine
// plays it now (set by hand or by an MPE Configuration Message).
inline MpeChannels mpeChannelsOf(const engine::EngineStats& stats, int part) {
  engine::MpeLayout layout;
  layout.configure(false, stats.mpeLower);
  layout.configure(true, stats.mpeUpper);
  if (!layout.isMaster(part)) return {};
  return {layout.firstMember(part), layout.lastMember(part)};
}

inline std::vector<NoteMark> noteMarksOf(const engine::EngineStats& stats, int part) {
  std::vector<NoteMark> marks;
  const MpeChannels zone = mpeChannelsOf(stats, part);
  for (int c = zone.first; c <= zone.last; ++c) {
    const engine::NoteExpressionStats& note = stats.mpeNotes[static_cast<std::size_t>(c)];
    if (note.key >= 0) marks.push_back({note.key, c, note.bendCents / 100.0f, note.pressure, note.timbre});
  }
  return marks;
}

}  // namespace spindle::gui
