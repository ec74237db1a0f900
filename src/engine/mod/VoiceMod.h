#pragma once
// VoiceMod: the controller modulation state of one voice. Audio thread only; a member
// of Voice, reused note after note (start() never allocates).
//
// Each continuous slot holds the slot's contribution (depth x curve(controller),
// quantised by its step) moving linearly towards the controller's current value: a
// change reaches its target in the slot's smoothing time (X_smoothccN, else
// kDefaultSmoothMs) and never faster. advance() runs once per control step (at most
// Voice::kControlFrames frames, and every segment starts one, so a controller move
// takes effect at its event's frame) and leaves the values of the step's end; the
// voice ramps its gains towards them frame by frame inside the step.
//
// The voice's envelopes and LFOs are its VoiceSources, started from the region's one
// source list. The control-rate ones (SFZ v2 LFOs and flex EGs) move with the same
// steps: their values at the step's end, times their depths (lfoN_pitch... plus the
// controller slots tagged with the source), are added to the sums; an amplitude depth
// multiplies the gain by 1 + depth% * value, and an EG that replaces ampeg multiplies
// it by its level. While one of them moves, steps stay at most maxStep long. The
// per-frame ones (v1) start with the note-start sums and follow the sums of their
// depth and frequency targets at each step.
#include <array>
#include <cstdint>

#include "core/Modulation.h"
#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/mod/ControllerState.h"
#include "engine/mod/ModPlan.h"
#include "engine/mod/VoiceSources.h"

namespace spindle::engine::mod {

class VoiceMod {
 public:
  static constexpr float kDefaultSmoothMs = 5.0f;

  // Reads the controllers: continuous values start at their targets (no glide), and
  // the note-start sums are fixed for the voice's life; then starts every source.
  // region: the plan's region regionIndex, or one outside the plan; seed: the voice's
  // LFO noise; frame: the engine frame the voice starts at (FlexLfo::clock).
  void start(const ModPlan& plan, size_t regionIndex, const Region& region, const ControllerState& cc,
             double sampleRate, uint32_t seed, float velocity01, uint64_t frame = 0) noexcept SPINDLE_REALTIME;
  // Moves every continuous value `frames` frames towards its controller's current value.
  void advance(const ControllerState& cc, int frames) noexcept SPINDLE_REALTIME;
  // A control step may be cut short (a MIDI event, a note-off in it): saveStep() at its
  // start keeps what advance() moves; cutStep(frames) takes the voice back there and on
  // by the `frames` of it that ran, towards the goals it had then.
  void saveStep() noexcept SPINDLE_REALTIME;
  void cutStep(int frames) noexcept SPINDLE_REALTIME;
  // The next control step's length, after taking the controllers' current values as
  // goals: `frames` when every value has arrived (nothing moves until the segment's
  // end: a controller event starts a new segment); else at most maxStep, ending where
  // a value arrives, so that the gain ramp arrives exactly in the smoothing time.
  int stepFrames(const ControllerState& cc, int frames, int maxStep) noexcept SPINDLE_REALTIME;

  // Dynamic envelopes: re-reads the controllers of the note-start slots on envelope
  // stages (ampeg_attack_onccN..., egN_timeX_onccY...); the sums and the flex EG point
  // additions follow them. Returns which changed: a mask of the Envelope* bits.
  static constexpr uint32_t kAmpeg = 1, kFileg = 2, kPitcheg = 4, kFlexEgs = 8;
  uint32_t refreshEnvelopes(const ControllerState& cc) noexcept SPINDLE_REALTIME;
  // The region has note-start slots refreshEnvelopes() follows.
  bool followsEnvelopes() const noexcept { return envelopeSlots_ > 0; }

  bool active() const noexcept { return info_->modulated(); }
  void release() noexcept SPINDLE_REALTIME { sources_.release(); }  // note-off
  // The flex EG that replaces ampeg (egN_ampeg) has run its last stage.
  bool amplitudeFinished() const noexcept {
    return info_->ampegEg > 0 && sources_.flexEgs().finished(info_->ampegEg - 1u);
  }
  const RegionMods& info() const noexcept { return *info_; }
  VoiceSources& sources() noexcept { return sources_; }
  const VoiceSources& sources() const noexcept { return sources_; }
  // The sums as the per-frame sources read them.
  TargetSums targetSums() const noexcept { return {&sums_, info_->noteStart > 0}; }
  // Sum of the slots of target t, in its unit (continuous: now; note-start: at start).
  // OscillatorModDepth multiplies like amplitude: the product of its slots' percent / 100.
  float sum(ModTarget t) const noexcept { return sums_[static_cast<size_t>(t)]; }
  // Product of the amplitude slots (percent / 100) and of the controller crossfades.
  float gain() const noexcept { return amplitude_ * crossfade_; }

 private:
  struct Smoothed {
    float value = 0.0f, goal = 0.0f, rate = 0.0f;  // rate: units per frame
    int64_t remaining = 0;                          // frames until value == goal
    float source = -1.0f;                           // controller value the goal was taken from
  };
  void startSmoothed(const ControllerState& cc, float framesPerMs) noexcept SPINDLE_REALTIME;
  void readNoteStart(const ControllerState& cc,
                     std::array<LfoBank::StartAdds, kMaxFlexLfos>& lfoStart) noexcept SPINDLE_REALTIME;
  void retarget(const ControllerState& cc) noexcept SPINDLE_REALTIME;
  void moveAll(int frames) noexcept SPINDLE_REALTIME;
  static void followClock(const RegionSources& list, std::array<LfoBank::StartAdds, kMaxFlexLfos>& lfoStart,
                          uint64_t frame, double sampleRate) noexcept SPINDLE_REALTIME;
  float contribution(const CcModulation& m, float x) const noexcept SPINDLE_REALTIME;
  // Where the voice reads each of its inputs (a slot's or a crossfade's controller number):
  // the part's controllers. The one place a per-note input would be read from its note.
  static float input(const ControllerState& cc, int number) noexcept SPINDLE_REALTIME { return cc.value(number); }
  static void setGoal(Smoothed& s, float goal, float smoothFrames) noexcept SPINDLE_REALTIME;
  static void move(Smoothed& s, int frames) noexcept SPINDLE_REALTIME;
  // ARIA variables' values as a step's slots give them: summed, or multiplied (mult).
  struct VariableTotals {
    std::array<float, kMaxVariables> value{};
    std::array<bool, kMaxVariables> given{};
  };
  void sumUp() noexcept SPINDLE_REALTIME;
  void addSlot(const CcModulation& slot, float value, VariableTotals& vars) noexcept SPINDLE_REALTIME;
  void addVariables(const VariableTotals& vars) noexcept SPINDLE_REALTIME;
  void addSources() noexcept SPINDLE_REALTIME;
  void addEg(const ModSource& s, float v) noexcept SPINDLE_REALTIME;
  float linkSource(size_t source) const noexcept SPINDLE_REALTIME;
  void depthScales(std::array<float, kMaxFlexLfos>& scale) const noexcept SPINDLE_REALTIME;

  const ModPlan* plan_ = nullptr;
  const RegionMods* info_ = &kNone;
  std::array<Smoothed, kMaxCcModulations> values_{};
  std::array<float, kMaxCcModulations> smoothFrames_{};
  std::array<Smoothed, kMaxCcCrossfades> fades_{};
  std::array<float, kMaxCcModulations> noteStartSource_{};  // controller value each note-start slot read
  int envelopeSlots_ = 0;
  std::array<float, static_cast<size_t>(ModTarget::Count)> sums_{};
  float amplitude_ = 1.0f, crossfade_ = 1.0f, fadeSmoothFrames_ = 0.0f;
  VoiceSources sources_;
  // Per flex LFO: controller additions to its depths (by target) and to its frequency (Hz).
  std::array<std::array<float, FlexLfo::kDepths>, kMaxFlexLfos> lfoDepthAdds_{};
  std::array<float, kMaxFlexLfos> lfoFreqAdds_{};
  std::array<std::array<float, FlexLfo::kDepths>, kMaxFlexEgs> egDepthAdds_{};
  // Sources moving LFO frequencies: controller additions per (source, LFO), and the Hz
  // the sources' values gave at the last step (used by the next).
  std::array<std::array<float, kMaxFlexLfos>, kMaxFlexLfos + kMaxFlexEgs> linkAdds_{};
  std::array<float, kMaxFlexLfos> lfoFreqMod_{};
  LfoBank::StepAdds stepAdds_{};  // lfoN_stepX_onccY
  // What advance() moves, at the start of the control step under way (saveStep).
  struct Saved {
    std::array<Smoothed, kMaxCcModulations> values{};
    std::array<Smoothed, kMaxCcCrossfades> fades{};
    std::array<float, kMaxFlexLfos> lfoFreqMod{};
    LfoBank::Saved lfos;
    FlexEgBank::Saved egs;
  };
  Saved saved_;

  static const RegionMods kNone;
};

}  // namespace spindle::engine::mod
