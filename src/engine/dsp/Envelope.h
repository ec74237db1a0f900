#pragma once
// SFZ DAHDSR envelope (ampeg, fileg, pitcheg). Audio thread only.
//
//   level
//   1.0 |        ____hold____
//       |       /            \_ decay
//   sus |      /               `--.______sustain______
//   st  |  ___/ attack (linear)                        \_ release
//   0   |__delay                                         `--.__ 0 -> finished()
//
// Stage lengths are whole frames, rounded from seconds once in setup(), so every
// boundary lies within half a frame of its nominal time. Invariants of process():
//   - attack is linear from `start` percent; its last frame is one step below 1.0;
//   - hold outputs exactly 1.0;
//   - decay and release follow an exponential curve (a fixed multiplier per frame
//     towards a target just past their end) that stays strictly above the end level
//     until the nominal boundary frame, where the level is set to the end level
//     exactly (sustain for decay, 0.0 for release);
//   - zero-length stages are skipped without emitting a frame;
//   - after a release (or a decay to a sustain of 0) reaches 0, finished() is true
//     and process() writes zeros.
// Per frame the work is one multiply-add; pow/exp run only in setup().
#include <cstdint>

#include "core/Realtime.h"
#include "core/Region.h"

namespace spindle::engine::dsp {

class Envelope {
 public:
  // Computes stage lengths in frames from the SFZ params (seconds/percent) with
  // velocity modulation vel2* (velocity01 = velocity/127). Call before start().
  // Leaves the envelope idle (finished) until start().
  void setup(const EnvelopeParams& params, float velocity01, double sampleRate) noexcept SPINDLE_REALTIME;
  void start() noexcept SPINDLE_REALTIME;                     // begin at the delay stage
  void release() noexcept SPINDLE_REALTIME;                   // note-off: release from the current level
  void fastRelease(float seconds) noexcept SPINDLE_REALTIME;  // choke/steal: linear fade to 0
  void process(float* out, int frames) noexcept SPINDLE_REALTIME;  // levels 0..1, one per frame
  bool finished() const noexcept SPINDLE_REALTIME;  // released (or fast released) to 0, or never started
  bool releasing() const noexcept SPINDLE_REALTIME;
  float level() const noexcept SPINDLE_REALTIME;

  // Additions to the engine interface.
  float depth() const noexcept { return depth_; }            // params.depth + vel2depth*velocity01, cents
  float sustainLevel() const noexcept { return static_cast<float>(sustain_); }  // 0..1 after vel2sustain
  // Curve shape of decay and release: each aims at a target this fraction of its span
  // past its end level, so it arrives at the end level with a finite slope.
  static constexpr double kCurveOvershoot = 0.05;

 private:
  enum class Stage : uint8_t { Idle, Delay, Attack, Hold, Decay, Sustain, Release, FastRelease, Done };

  void enterStage(Stage stage) noexcept SPINDLE_REALTIME;  // skips zero-length stages
  void finishStage() noexcept SPINDLE_REALTIME;            // pins the end level, enters the next stage
  int runStage(float* out, int frames) noexcept SPINDLE_REALTIME;  // returns frames written

  // Stage lengths in frames, after velocity modulation.
  int64_t delayFrames_ = 0, attackFrames_ = 0, holdFrames_ = 0, decayFrames_ = 0, releaseFrames_ = 0;
  double startLevel_ = 0.0, sustain_ = 1.0;
  double decayCoef_ = 0.0, releaseCoef_ = 0.0;  // per-frame multipliers: coef^frames = overshoot/(1+overshoot)
  double sampleRate_ = 48000.0;
  float depth_ = 0.0f;

  Stage stage_ = Stage::Idle;
  int64_t remaining_ = 0;  // frames left in a timed stage
  double level_ = 0.0;     // level of the next frame written
  double step_ = 0.0;      // attack / fast release increment per frame
  double target_ = 0.0;    // decay / release: level_ = target_ + (level_ - target_) * coef
};

}  // namespace spindle::engine::dsp
