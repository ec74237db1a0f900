// Voice render stages: pitch -> fetch (VoiceFetch.cpp) -> filters (VoiceFilters.cpp) -> eq -> shapers -> amp/pan
// -> mix.
#include <algorithm>
#include <cmath>

#include "core/Units.h"
#include "engine/voices/Voice.h"
#include "engine/dsp/Mix.h"
#include "engine/mod/Curves.h"

namespace spindle::engine {

void Voice::render(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  if (!active_) return;
  ctx.segment = outLeft;
  if (ctx.cut) cutStep();
  followEnvelopes(mix);
  int offset = 0;
  if (delayFrames_ > 0) {
    offset = static_cast<int>(std::min<int64_t>(delayFrames_, frames));
    delayFrames_ -= offset;
    if (offset == frames) return;
  }
  const int n = frames - offset;
  if (stopFrames_ >= 0 && stopFrames_ < n) {  // stop_beats: released at its exact frame
    const auto before = static_cast<int>(stopFrames_);
    renderSounding(outLeft + offset, outRight + offset, before, mix, ctx);
    stopFrames_ = -1;
    release();
    renderSounding(outLeft + offset + before, outRight + offset + before, n - before, mix, ctx);
  } else {
    if (stopFrames_ >= 0) stopFrames_ -= n;
    renderSounding(outLeft + offset, outRight + offset, n, mix, ctx);
  }
  if (sourceEnded_ || mod_.sources().finished() || (stepLeft_ == 0 && mod_.amplitudeFinished())) active_ = false;
}

void Voice::renderSounding(float* outLeft, float* outRight, int frames, const PartMix& mix,
                           RenderContext& ctx) noexcept SPINDLE_REALTIME {
  if (frames <= 0) return;
  if (!modulated_) {
    renderSpan(outLeft, outRight, frames, mix, ctx);
    return;
  }
  // A flex EG replacing ampeg has finished at the end of the step it finished in.
  for (int done = 0; done < frames && !sourceEnded_ && !mod_.sources().finished();) {
    if (stepLeft_ == 0 && (mod_.amplitudeFinished() || beginStep(mix, frames - done) == 0)) break;
    const int n = std::min(stepLeft_, frames - done);
    renderSpan(outLeft + done, outRight + done, n, mix, ctx);
    stepLeft_ -= n;
    stepDone_ += n;
    done += n;
  }
}

void Voice::renderSpan(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  RenderScratch& s = *ctx.scratch;
  for (int done = 0, n = 0; done < frames; done += n) {  // a bend glide's end splits the span
    n = computeIncrements(s.pitchEnv.data(), s.pitchLfo.data(), frames - done, mix);
    fetch(s.left.data(), s.right.data(), n, pitch_.perFrame() ? s.pitchEnv.data() : nullptr, ctx);
    filters_.process(s.left.data(), s.right.data(), n, mod_.sources(), s.filEnv.data(), s.filLfo.data());
    eq_.process(s.left.data(), s.right.data(), n);
    shapers_.process(s.left.data(), s.right.data(), n);
    amplify(outLeft + done, outRight + done, n, mix, ctx);
  }
}

// The pitch stage (VoicePitch), with loop_tune while the span starts inside a loop that
// still jumps back. Returns the frames it covers (fewer when a bend glide ends).
int Voice::computeIncrements(float* pitchEnv, float* pitchLfo, int frames, const PartMix& mix) noexcept
    SPINDLE_REALTIME {
  const LoopMap& loop = source_.loop();
  const bool inLoop = loop.looping() && position_ >= static_cast<double>(loop.loopStart) &&
                      position_ < static_cast<double>(loop.exitPoint());
  const float loopTune = inLoop ? region_->loopTune : 0.0f;
  return pitch_.computeIncrements(bendCents(mix), loopTune, mod_.sources(), pitchEnv,
                           pitchLfo, frames);
}

void Voice::amplify(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  float* env = ctx.scratch->ampEnv.data();
  mod_.sources().processEnvelope(mod::V1Dest::Amp, env, frames);
  if (mod_.sources().lfoActive(mod::V1Dest::Amp)) {
    float* lfo = ctx.scratch->ampLfo.data();
    mod_.sources().processLfo(mod::V1Dest::Amp, lfo, frames);
    for (int i = 0; i < frames; ++i) env[i] *= dbToGain(lfo[i]);
  }
  const auto at = static_cast<int>(outLeft - ctx.segment);  // the span's frame in the segment
  if (hasFxSends_ && ctx.fxLeft[0]) {
    mixWithFxSends(outLeft, outRight, env, frames, at, mix, ctx);
  } else {
    gain_.mixInto(outLeft, outRight, ctx.scratch->left.data(), ctx.scratch->right.data(), env, frames, mix,
                  modulated_);
  }
  if (hasSends_) addSends(env, frames, at, mix, ctx);
}

// The voice's output goes whole to the main bus (out) and, times effectN / 100, to fx
// bus N from the span's frame `at` in the segment.
void Voice::mixWithFxSends(float* outLeft, float* outRight, const float* env, int frames, int at,
                           const PartMix& mix, RenderContext& ctx) noexcept SPINDLE_REALTIME {
  float* left = ctx.scratch->busLeft.data();
  float* right = ctx.scratch->busRight.data();
  std::fill_n(left, frames, 0.0f);
  std::fill_n(right, frames, 0.0f);
  gain_.mixInto(left, right, ctx.scratch->left.data(), ctx.scratch->right.data(), env, frames, mix, modulated_);
  for (int i = 0; i < frames; ++i) {
    outLeft[i] += left[i];
    outRight[i] += right[i];
  }
  const std::array<float, kFxBuses> sends = region_->fxSends();
  for (size_t n = 0; n < sends.size(); ++n) {
    const float level = std::clamp(sends[n], 0.0f, 100.0f) * 0.01f;
    if (level == 0.0f) continue;
    float* busLeft = ctx.fxLeft[n] + at;
    float* busRight = ctx.fxRight[n] + at;
    for (int i = 0; i < frames; ++i) {
      busLeft[i] += left[i] * level;
      busRight[i] += right[i] * level;
    }
    ctx.fxSent[n] = true;
  }
}

// Each send bus gets the voice's centred signal (no pan) times its send level, read
// from the part's controllers once per span and ramped to (GainRamp.h), from the span's
// frame `at` in the segment.
void Voice::addSends(const float* env, int frames, int at, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  const float centre = gain_.centreGain(mix, modulated_) * region_->sendGain;
  const float* left = ctx.scratch->left.data();
  const float* right = stereo_ ? ctx.scratch->right.data() : nullptr;
  for (size_t b = 0; b < static_cast<size_t>(kSendBuses); ++b) {
    const EffectSend& send = region_->sends[b];
    const float cc = mix.controllers && send.perCc != 0.0f ? mix.controllers->value(send.cc) : 0.0f;
    GainRamp& ramp = sendRamps_[b];
    ramp.aim(std::clamp(send.percent + send.perCc * cc, 0.0f, 100.0f) * 0.01f * centre);
    if (!ctx.sends[b]) ramp.skip(frames);
    if (!ctx.sends[b] || ramp.silent()) continue;
    float* bus = ctx.sends[b] + at;
    if (ramp.steady() && !right) {
      dsp::addScaled(left, env, ramp.level(), bus, frames);
    } else {
      for (int i = 0; i < frames; ++i) bus[i] += (right ? 0.5f * (left[i] + right[i]) : left[i]) * env[i] * ramp.next();
    }
    ctx.sent[b] = true;
  }
}

}  // namespace spindle::engine
