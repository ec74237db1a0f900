#pragma once
// SFZ DAHDSR envelope (ampeg, fileg, pitcheg). Audio thread only.
//
//   level
//   1.0 |        ____hold____
//       |       /            \_ decay
//   sus |      /               `--.______sustain______
//   st  |  ___/ attack                                 \_ release
//   0   |__delay                                         `--.__ 0 -> finished()
//
// Stage lengths are whole frames, rounded from seconds once in setup(), so every
// boundary lies within half a frame of its nominal time. Each timed stage follows
// the curve of its shape s (ARIA's *_shape) along u in [0, 1]:
//   B(u) = u                                  s = 0 (linear)
//   B(u) = (exp(-s u) - 1) / (exp(-s) - 1)    otherwise
// Below 0 the curve bends under the straight line (slow start for the attack, a fast
// fall first for decay and release: ampeg's -10.3616 is an exponential falling 90 dB
// over the stage), above 0 over it.
//   - attack: start + (1 - start) B(u), u rising 0 -> 1; its last frame is one step
//     short of 1.0, which the hold stage outputs exactly;
//   - decay: decayZero = 1 (ARIA's default) runs B from 1 towards 0 over the decay time
//     and stops where it reaches sustain; decayZero = 0 runs sustain + (1 - sustain) B;
//   - release: releaseZero = 0 (default) runs level * B over the release time from the
//     level the note-off found; releaseZero = 1 enters the 1 -> 0 curve at that level;
//   - every stage stays above its end level until its last frame (in exact arithmetic:
//     a steep curve's last frames may round to it in float); the frame after is the
//     end level exactly (sustain, or 0.0 and finished());
//   - zero-length stages are skipped without emitting a frame.
// Per frame the work is one multiply (or add) and one multiply-add; exp/log run only in
// setup() and at the note-off.
#include <cstdint>

#include "core/Realtime.h"
#include "core/Region.h"

namespace spindle::engine::mod {

class Envelope {
 public:
  // Computes stage lengths in frames from the SFZ params (seconds/percent) with
  // velocity modulation vel2* (velocity01 = velocity/127). Call before start().
  // Leaves the envelope idle (finished) until start().
  void setup(const EnvelopeParams& params, float velocity01, double sampleRate) noexcept SPINDLE_REALTIME;
  void start() noexcept SPINDLE_REALTIME;                     // begin at the delay stage
  // New params while the envelope runs (ampeg_dynamic...: a controller moved). The
  // stage keeps its place: a delay or hold the frames it has run, a curve its point u,
  // with the new length from there (a stage now shorter than what has run ends at
  // once); a new sustain level is reached in a kGlideFrames linear glide.
  void update(const EnvelopeParams& params, float velocity01) noexcept SPINDLE_REALTIME;
  static constexpr int kGlideFrames = 64;
  void release() noexcept SPINDLE_REALTIME;                   // note-off: release from the current level
  // choke/steal: a fade to 0 over `seconds`, linear (shape 0) or along the curve of
  // that shape (as the stages': level(u) = L (1 - (exp(-s u) - 1) / (exp(-s) - 1))).
  void fastRelease(float seconds, float shape = 0.0f) noexcept SPINDLE_REALTIME;
  void process(float* out, int frames) noexcept SPINDLE_REALTIME;  // levels 0..1, one per frame
  bool finished() const noexcept SPINDLE_REALTIME;  // released (or fast released) to 0, or never started
  bool releasing() const noexcept SPINDLE_REALTIME;
  float level() const noexcept SPINDLE_REALTIME;

  // Additions to the engine interface.
  float depth() const noexcept { return depth_; }            // params.depth + vel2depth*velocity01, cents
  float sustainLevel() const noexcept { return static_cast<float>(sustain_); }  // 0..1 after vel2sustain

 private:
  enum class Stage : uint8_t { Idle, Delay, Attack, Hold, Decay, Sustain, Release, FastRelease, Done, Glide };

  // One stage's curve B along u, walked one frame at a time: level = offset + scale * x,
  // where x is u (linear) or exp(-s u) (curved), stepped by x = x * mul + add.
  struct Curve {
    double shape = 0.0;                // s; 0 = linear
    double x = 0.0, mul = 1.0, add = 0.0;
    double offset = 0.0, scale = 0.0;  // level = offset + scale * x
    // Runs B from u0 by du per frame, mapped to base + span * B(u).
    void begin(double s, double u0, double du, double base, double span) noexcept SPINDLE_REALTIME;
    // Writes n frames' levels from x on; returns x after them.
    double run(float* out, int n) const noexcept SPINDLE_REALTIME;
    double position() const noexcept SPINDLE_REALTIME;  // u now
    void retime(double du) noexcept SPINDLE_REALTIME;    // the same curve from u now, by du per frame
  };
  void setParams(const EnvelopeParams& params, float velocity01) noexcept SPINDLE_REALTIME;
  void glideToSustain() noexcept SPINDLE_REALTIME;  // Glide: linear from the level now to sustain_

  void enterStage(Stage stage) noexcept SPINDLE_REALTIME;  // skips zero-length stages
  void beginAttack() noexcept SPINDLE_REALTIME;            // the curved stages' lengths and curves
  void beginDecay() noexcept SPINDLE_REALTIME;
  void beginRelease() noexcept SPINDLE_REALTIME;
  void finishStage() noexcept SPINDLE_REALTIME;            // pins the end level, enters the next stage
  int runStage(float* out, int frames) noexcept SPINDLE_REALTIME;  // returns frames written

  // Stage lengths in frames, after velocity modulation.
  int64_t delayFrames_ = 0, attackFrames_ = 0, holdFrames_ = 0, decayFrames_ = 0, releaseFrames_ = 0;
  double startLevel_ = 0.0, sustain_ = 1.0;
  double attackShape_ = 0.0, decayShape_ = 0.0, releaseShape_ = 0.0;
  bool decayZero_ = true, releaseZero_ = false;
  int64_t decayRun_ = 0;  // decay frames actually run (decayZero: until the curve reaches sustain)
  double sampleRate_ = 48000.0;
  float depth_ = 0.0f;

  Stage stage_ = Stage::Idle;
  int64_t remaining_ = 0;  // frames left in a timed stage
  double level_ = 0.0;     // level of the next frame written
  double step_ = 0.0;      // fast release decrement per frame
  bool fastCurved_ = false;  // the fast release runs curve_ instead
  Curve curve_;            // attack, decay, release
};

}  // namespace spindle::engine::mod
