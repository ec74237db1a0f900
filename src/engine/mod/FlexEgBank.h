#pragma once
// FlexEgBank: the SFZ v2 flex envelopes (egN_*, core/Region.h FlexEg) of one voice.
// Audio thread only; a member of VoiceMod, reused note after note.
//
// Read at control rate, like the LFOs: advance() moves every EG a control step's
// frames on, value(k) is EG k at the step's end. Stage X runs round(timeX * rate)
// frames from the level the previous stage ended at (0 for stage 0) to levelX:
//   level = source + (levelX - source) * B(x),  x = frames run / stage frames,
//   B(x) = x^s for s = shapeX > 0, 1 - (1 - x)^-s for s < 0, x for 0 (as sfizz):
// a shape above 1 moves slowly first, one below -1 fast first; egN_curveX = n uses
// <curve> n's values (curve_index n, v000..v127 over x) instead. The
// stage numbered `sustain` holds levelX once there until the note-off (a note-off that
// comes earlier lets it pass). After the last stage the EG is 0 and finished().
// A stage takes its time and level, with their controller additions, when it starts
// (egN_dynamic=0, the reference's "start of the segment"); with egN_dynamic=1 a change
// of the additions (pointsMoved) also restarts the stage running from its level now,
// towards the new level over the new time less the frames it has run.
// egN_loop = L: after the last stage, while the note is held, the EG goes back to stage
// L (from the level it reached) up to egN_loop_count times (0: no limit); a loop whose
// stages take no time at all does not repeat. egN_points only ever adds points.
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/mod/CurveTable.h"

namespace spindle::engine::mod {

class FlexEgBank {
 public:
  // Controller additions to the points (egN_timeX_onccY, egN_levelX_onccY), taken at
  // note start: seconds and level per EG entry and point. clearPointAdds() zeroes them
  // for the caller to fill before start(); start() keeps them for the note.
  struct PointAdds {
    std::array<std::array<float, FlexEg::kMaxPoints>, kMaxFlexEgs> time{}, level{};
  };
  PointAdds& clearPointAdds() noexcept SPINDLE_REALTIME {
    adds_ = PointAdds{};
    return adds_;
  }
  // The additions, for a caller following the controllers; after changing them, call
  // pointsMoved() (dynamic EGs re-read their running stage).
  PointAdds& pointAdds() noexcept { return adds_; }
  void pointsMoved() noexcept SPINDLE_REALTIME;
  // A note's start: reset(), add() each EG in entry order, then begin(). curves: the
  // program's <curve> table, for egN_curveX (null: shapes only).
  void reset(double sampleRate, const CurveTable* curves) noexcept SPINDLE_REALTIME;
  void add(const FlexEg& eg) noexcept SPINDLE_REALTIME;
  void begin() noexcept SPINDLE_REALTIME { advance(0); }
  void release() noexcept SPINDLE_REALTIME;
  void advance(int frames) noexcept SPINDLE_REALTIME;
  float value(size_t k) const noexcept { return static_cast<float>(state_[k].level); }
  bool finished(size_t k) const noexcept { return state_[k].done; }
  size_t size() const noexcept { return count_; }
  // Some EG is inside a timed stage (not held at its sustain point, not finished).
  bool moving() const noexcept SPINDLE_REALTIME;

  static double curve(double shape, double x) noexcept SPINDLE_REALTIME;  // B(x), x in [0, 1]

  // What advance() moves, kept to take a control step back (VoiceMod::cutStep).
  struct Saved;
  void save(Saved& saved) const noexcept SPINDLE_REALTIME;
  void restore(const Saved& saved) noexcept SPINDLE_REALTIME;

 private:
  struct State {
    const FlexEg* params = nullptr;
    size_t entry = 0;
    int stage = 0;
    int64_t frames = 0, length = 0;  // run on this stage's curve, and the curve's length
    int64_t elapsed = 0, stageFrames = 0;  // run since the stage started, and the stage's length
    double source = 0.0, level = 0.0, target = 0.0;  // target: the stage's level, with its addition
    bool done = false;
    int loops = 0;         // times gone back to the loop stage
    int64_t loopMark = -1;  // advance()'s frames left at the last jump back (a loop of no time stops)
  };
  void enter(State& s, int stage) noexcept SPINDLE_REALTIME;
  void next(State& s, int64_t left) noexcept SPINDLE_REALTIME;  // the stage after this one, or the loop's
  int64_t stageLength(const State& s) const noexcept SPINDLE_REALTIME;  // frames, from time + addition
  double stageTarget(const State& s) const noexcept SPINDLE_REALTIME;
  bool held(const State& s) const noexcept SPINDLE_REALTIME;

  std::array<State, kMaxFlexEgs> state_{};

 public:
  struct Saved {
    std::array<State, kMaxFlexEgs> state{};
  };

 private:
  PointAdds adds_{};
  const CurveTable* curves_ = nullptr;
  size_t count_ = 0;
  double sampleRate_ = 48000.0;
  bool released_ = false;
};

}  // namespace spindle::engine::mod
