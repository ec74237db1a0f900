#pragma once
// VoiceGain: a voice's output gains. The static gain (volume, amplitude, velocity,
// keytrack, random, crossfades), the pan offset (pan + position), the stereo width, and
// the left/right gains now, which ramp to each new target frame by frame: over
// kRampFrames when the part's gain or pan moves, over the control step when controller
// modulation moves them (VoiceControl.cpp). Audio thread only; a member of Voice.
#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/parts/PartMix.h"
#include "engine/voices/Random.h"
#include "engine/mod/VoiceMod.h"

namespace spindle::engine {

class VoiceGain {
 public:
  static constexpr int kRampFrames = 64;

  // At note start, before setup(): the conversions cached for controller modulation.
  void clearModulation() noexcept SPINDLE_REALTIME;
  // amp_random adds uniform [0, amp_random] dB; pan and position add up (position only
  // for stereo files); width mixes the two channels; phase=invert makes the gain negative.
  void setup(const Region& r, int key, int velocity, float extraDb, bool stereo, Prng& rng) noexcept
      SPINDLE_REALTIME;
  // The gains of the first frame, no ramp: the part's pan and gain.
  void start(const PartMix& mix) noexcept SPINDLE_REALTIME;
  // A modulated voice's first frame: the gains computeModulated() gave.
  void startModulated() noexcept SPINDLE_REALTIME;
  // The gains at the control step's end (fadeout: sample_fadeout's gain there).
  void computeModulated(const Region& r, const mod::VoiceMod& mod, const PartMix& mix, int velocity,
                        float fadeout) noexcept SPINDLE_REALTIME;
  void setWidth(float percent) noexcept SPINDLE_REALTIME;  // width with width_onccN, a stereo voice's
  void setRampFrames(int frames) noexcept { rampFrames_ = frames; }
  int rampFrames() const noexcept { return rampFrames_; }
  float staticGain() const noexcept { return staticGain_; }
  // The gain without the pan law, for the effect sends: the target of this span.
  float centreGain(const PartMix& mix, bool modulated) const noexcept SPINDLE_REALTIME {
    return modulated ? modCentre_ : staticGain_ * mix.gain;
  }

  // Adds left/right (right ignored for a mono voice) times env and the gains to out.
  void mixInto(float* outLeft, float* outRight, const float* left, const float* right, const float* env, int frames,
               const PartMix& mix, bool modulated) noexcept SPINDLE_REALTIME;

 private:
  float panAndPosition(const Region& r, int key, int velocity, Prng& rng) const noexcept SPINDLE_REALTIME;
  int ramp(const float* left, const float* right, const float* env, float targetLeft, float targetRight,
           float* outLeft, float* outRight, int frames, int rampLength) noexcept SPINDLE_REALTIME;

  float staticGain_ = 1.0f;  // volume, amplitude, velocity, keytrack, random, crossfades
  float gainBase_ = 1.0f;    // staticGain_ without the velocity gain
  float panOffset_ = 0.0f;   // region pan + position, -1..1
  float widthA_ = 1.0f, widthB_ = 0.0f;
  float gainLeft_ = 0.0f, gainRight_ = 0.0f;  // current (ramped) output gains
  bool stereo_ = false;
  // Controller modulation: the gains at the control step's end and the frames the gains
  // take to reach them; the last volume (dB) and pan converted, and their results:
  // pow/cos/sin run only when those move.
  float modLeft_ = 0.0f, modRight_ = 0.0f, modCentre_ = 0.0f;
  int rampFrames_ = kRampFrames;
  float lastVolumeDb_ = 0.0f, lastVolumeGain_ = 1.0f, lastPan_ = 0.0f;
  float lastPanLeft_ = 1.0f, lastPanRight_ = 1.0f;
  float veltrack_ = 100.0f;  // amp_veltrack with this note's amp_veltrack_random draw
  bool balance_ = false;     // pan_law=balance
  // The ramp under way (done > 0): frame k of it has the gain start + step * k.
  struct Ramp {
    float startLeft = 0.0f, startRight = 0.0f, stepLeft = 0.0f, stepRight = 0.0f;
    float targetLeft = 0.0f, targetRight = 0.0f;
    int length = 0, done = 0;
  };
  Ramp ramp_;
};

}  // namespace spindle::engine
