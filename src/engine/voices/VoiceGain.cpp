// VoiceGain: note-start gains, controller modulation of gain and pan, and the amp stage.
#include "engine/voices/VoiceGain.h"

#include <algorithm>

#include "core/Units.h"
#include "engine/dsp/Mix.h"
#include "engine/mod/Curves.h"

namespace spindle::engine {

void VoiceGain::clearModulation() noexcept SPINDLE_REALTIME {
  lastVolumeDb_ = lastPan_ = 0.0f;
  lastVolumeGain_ = lastPanLeft_ = lastPanRight_ = 1.0f;
}

void VoiceGain::setup(const Region& r, int key, int velocity, float extraDb, bool stereo, Prng& rng) noexcept
    SPINDLE_REALTIME {
  stereo_ = stereo;
  float db = r.volume + r.ampKeytrack * static_cast<float>(key - r.ampKeycenter) + extraDb;
  if (r.ampRandom > 0.0f) db += r.ampRandom * rng.uniform();
  gainBase_ = dbToGain(db) * r.amplitude * 0.01f * curves::crossfadeGain(r, key, velocity);
  if (r.phaseInvert) gainBase_ = -gainBase_;
  // amp_veltrack_random: one bipolar draw when given (the other draws stay as they were).
  veltrack_ = r.ampVeltrack;
  if (r.ampVeltrackRandom != 0.0f) veltrack_ += r.ampVeltrackRandom * rng.bipolar();
  staticGain_ = gainBase_ * curves::velocityGain(r, velocity, veltrack_);
  balance_ = r.panLaw == 1;
  panOffset_ = panAndPosition(r, key, velocity, rng);
  const float w = std::clamp(r.width * 0.01f, -1.0f, 1.0f);
  widthA_ = stereo_ ? 0.5f * (1.0f + w) : 1.0f;
  widthB_ = stereo_ ? 0.5f * (1.0f - w) : 0.0f;
}

// The voice's pan offset, -1..1 before clamping (panGains clamps): pan with its
// keytrack and veltrack plus a bipolar pan_random, then for stereo files position with
// its keytrack, veltrack and a bipolar position_random. Each *_random draws once when
// non-zero (mono files too), so the random sequence does not depend on the file's channels.
float VoiceGain::panAndPosition(const Region& r, int key, int velocity, Prng& rng) const noexcept SPINDLE_REALTIME {
  float pan = r.pan + r.panKeytrack * static_cast<float>(key - r.panKeycenter) +
              r.panVeltrack * static_cast<float>(velocity) / 127.0f;
  if (r.panRandom != 0.0f) pan += r.panRandom * rng.bipolar();
  float position = r.position + r.positionKeytrack * static_cast<float>(key - r.positionKeycenter);
  position += r.positionVeltrack * static_cast<float>(velocity) / 127.0f;
  if (r.positionRandom != 0.0f) position += r.positionRandom * rng.bipolar();
  return 0.01f * (pan + (stereo_ ? position : 0.0f));
}

void VoiceGain::start(const PartMix& mix) noexcept SPINDLE_REALTIME {
  const curves::PanGains pan = curves::panGains(panOffset_ + mix.pan, balance_);
  gainLeft_ = pan.left * staticGain_ * mix.gain;
  gainRight_ = pan.right * staticGain_ * mix.gain;
  ramp_ = {};
}

void VoiceGain::startModulated() noexcept SPINDLE_REALTIME {
  gainLeft_ = modLeft_;
  gainRight_ = modRight_;
  ramp_ = {};
}

void VoiceGain::setWidth(float percent) noexcept SPINDLE_REALTIME {
  const float w = std::clamp(percent * 0.01f, -1.0f, 1.0f);
  widthA_ = 0.5f * (1.0f + w);
  widthB_ = 0.5f * (1.0f - w);
}

// The region's gain with amplitude, volume, amp_veltrack and crossfade modulation, the
// part's mix (without the CCs the region takes over), and the pan law over pan +
// position + their modulation.
void VoiceGain::computeModulated(const Region& r, const mod::VoiceMod& mod, const PartMix& mix, int velocity,
                                 float fadeout) noexcept SPINDLE_REALTIME {
  using T = ModTarget;
  const mod::RegionMods& m = mod.info();
  float gain = staticGain_;
  if (m.touches(T::AmpVeltrack)) gain = gainBase_ * curves::velocityGain(r, velocity, veltrack_ + mod.sum(T::AmpVeltrack));
  const float volumeDb = mod.sum(T::Volume);
  if (volumeDb != lastVolumeDb_) {
    lastVolumeDb_ = volumeDb;
    lastVolumeGain_ = dbToGain(volumeDb);
  }
  gain *= lastVolumeGain_ * mod.gain() * fadeout;
  float part = mix.gain;
  if (m.ownsCc7 || m.ownsCc11) part = mix.baseGain * (m.ownsCc7 ? 1.0f : mix.cc7Gain) * (m.ownsCc11 ? 1.0f : mix.cc11Gain);
  float pan = panOffset_ + mod.sum(T::Pan) * 0.01f + mix.pan - (m.ownsCc10 ? mix.ccPan : 0.0f);
  if (stereo_) pan += mod.sum(T::Position) * 0.01f;
  if (pan != lastPan_) {
    const curves::PanGains p = curves::panGains(pan, balance_);
    lastPan_ = pan;
    lastPanLeft_ = p.left;
    lastPanRight_ = p.right;
  }
  modCentre_ = gain * part;
  modLeft_ = lastPanLeft_ * gain * part;
  modRight_ = lastPanRight_ * gain * part;
}

void VoiceGain::mixInto(float* outLeft, float* outRight, const float* left, const float* right, const float* env,
                        int frames, const PartMix& mix, bool modulated) noexcept SPINDLE_REALTIME {
  const curves::PanGains pan = curves::panGains(panOffset_ + mix.pan, balance_);
  // A modulated voice reaches the gains of its control step's end at the step's end.
  const float targetLeft = modulated ? modLeft_ : pan.left * staticGain_ * mix.gain;
  const float targetRight = modulated ? modRight_ : pan.right * staticGain_ * mix.gain;
  const int rampLength = modulated ? rampFrames_ : kRampFrames;
  if (!stereo_) right = left;
  int done = 0;
  if (targetLeft != gainLeft_ || targetRight != gainRight_) {
    done = ramp(left, right, env, targetLeft, targetRight, outLeft, outRight, frames, rampLength);
  }
  const int rest = frames - done;
  if (stereo_ && (widthA_ != 1.0f || widthB_ != 0.0f)) {
    dsp::addWidth(left + done, right + done, env + done, widthA_, widthB_, gainLeft_, gainRight_, outLeft + done,
                  outRight + done, rest);
  } else {
    dsp::addScaled(left + done, env + done, gainLeft_, outLeft + done, rest);
    dsp::addScaled(right + done, env + done, gainRight_, outRight + done, rest);
  }
}

// A part's gain or pan moved: the first frames step the gains towards the targets,
// rampLength steps in all. A segment shorter than that (a block or an event ends it)
// leaves the rest to the next one, which goes on with the same start and steps when the
// targets and the length are still the same: the frames do not depend on where blocks
// end. Returns the frames written.
int VoiceGain::ramp(const float* left, const float* right, const float* env, float targetLeft, float targetRight,
                    float* outLeft, float* outRight, int frames, int rampLength) noexcept SPINDLE_REALTIME {
  if (ramp_.done == 0 || targetLeft != ramp_.targetLeft || targetRight != ramp_.targetRight || rampLength != ramp_.length)
    ramp_ = {gainLeft_, gainRight_, (targetLeft - gainLeft_) / static_cast<float>(rampLength),
             (targetRight - gainRight_) / static_cast<float>(rampLength), targetLeft, targetRight, rampLength, 0};
  const int rampFrames = std::min(frames, ramp_.length - ramp_.done);
  // Each frame's gain from the start (no running sum): the loop vectorises.
  const float startLeft = ramp_.startLeft, startRight = ramp_.startRight, stepLeft = ramp_.stepLeft;
  const float stepRight = ramp_.stepRight, a = widthA_, b = widthB_;
  const int done = ramp_.done;
  const float* __restrict inL = left;
  const float* __restrict inR = right;
  const float* __restrict e = env;
  float* __restrict outL = outLeft;
  float* __restrict outR = outRight;
  for (int i = 0; i < rampFrames; ++i) {
    const auto t = static_cast<float>(done + i + 1);
    const float l = a * inL[i] + b * inR[i];
    const float r = b * inL[i] + a * inR[i];
    outL[i] += l * e[i] * (startLeft + stepLeft * t);
    outR[i] += r * e[i] * (startRight + stepRight * t);
  }
  ramp_.done += rampFrames;
  const bool arrived = ramp_.done == ramp_.length;
  gainLeft_ = arrived ? targetLeft : startLeft + stepLeft * static_cast<float>(ramp_.done);
  gainRight_ = arrived ? targetRight : startRight + stepRight * static_cast<float>(ramp_.done);
  if (arrived) ramp_ = {};
  return rampFrames;
}

}  // namespace spindle::engine
