// Voice render stages: pitch -> fetch (VoiceFetch.cpp) -> filters (VoiceFilters.cpp) -> eq -> amp/pan -> mix.
#include <algorithm>
#include <cmath>

#include "core/Units.h"
#include "engine/Curves.h"
#include "engine/Voice.h"

namespace spindle::engine {

void Voice::render(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  if (!active_) return;
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
  if (sourceEnded_ || sources_.finished() || mod_.amplitudeFinished()) active_ = false;
}

void Voice::renderSounding(float* outLeft, float* outRight, int frames, const PartMix& mix,
                           RenderContext& ctx) noexcept SPINDLE_REALTIME {
  if (frames <= 0) return;
  if (!modulated_) {
    renderSpan(outLeft, outRight, frames, mix, ctx);
    return;
  }
  for (int done = 0; done < frames && !sourceEnded_ && !sources_.finished() && !mod_.amplitudeFinished();) {
    const int len = controlStep(mix, frames - done);
    applyControl(mix, len);
    renderSpan(outLeft + done, outRight + done, len, mix, ctx);
    done += len;
  }
}

void Voice::renderSpan(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  RenderScratch& s = *ctx.scratch;
  computeIncrements(s.pitchEnv.data(), s.pitchLfo.data(), frames, mix);
  fetch(s.left.data(), s.right.data(), frames, pitchModulated_ ? s.pitchEnv.data() : nullptr, ctx);
  filters_.process(s.left.data(), s.right.data(), frames, sources_, s.filEnv.data(), s.filLfo.data());
  if (hasEq_) {
    if (stereo_) {
      eq_.process(s.left.data(), s.right.data(), frames);
    } else {
      eq_.processMono(s.left.data(), frames);
    }
  }
  amplify(outLeft, outRight, frames, mix, ctx);
}

// Unmodulated pitch: one increment for the segment. Modulated: per-frame increments,
// written over pitchEnv.
void Voice::computeIncrements(float* pitchEnv, float* pitchLfo, int frames, const PartMix& mix) noexcept
    SPINDLE_REALTIME {
  double bend = static_cast<double>(smoothBend(curves::bendCents(*region_, mix.bend, mix.bendRange), frames) + modCents_);
  // loop_tune: while the span starts inside a loop that still jumps back.
  const LoopMap& loop = source_.loop();
  if (region_->loopTune != 0.0f && loop.looping() && position_ >= static_cast<double>(loop.loopStart) &&
      position_ < static_cast<double>(loop.exitPoint()))
    bend += static_cast<double>(region_->loopTune);
  increment_ = std::min(baseIncrement_ * centsToRatio(bend), RenderScratch::kMaxIncrement);
  if (!pitchModulated_) return;
  sources_.processEnvelope(mod::V1Dest::Pitch, pitchEnv, frames);
  sources_.processLfo(mod::V1Dest::Pitch, pitchLfo, frames);
  const float depth = sources_.depth(mod::V1Dest::Pitch);
  for (int i = 0; i < frames; ++i) {
    const double cents = bend + static_cast<double>(pitchEnv[i] * depth + pitchLfo[i]);
    pitchEnv[i] = static_cast<float>(std::min(baseIncrement_ * std::exp2(cents / 1200.0), RenderScratch::kMaxIncrement));
  }
}

// bend_smooth: every new bend is reached in a straight glide (in cents) lasting
// bend_smooth ms, stepped once per render segment; what sfizz_render plays is close
// (tests/engine/core/V2OpcodeTests.cpp). 0 plays the bend at once, exactly.
float Voice::smoothBend(float targetCents, int frames) noexcept SPINDLE_REALTIME {
  const float ms = region_->bendSmooth;
  if (ms <= 0.0f) return bendCents_ = bendTarget_ = targetCents;
  if (targetCents != bendTarget_) {
    bendTarget_ = targetCents;
    bendRate_ = std::fabs(targetCents - bendCents_) / (ms * 0.001f * static_cast<float>(sampleRate_));
  }
  // The segment plays the glide's value at its middle frame.
  const float half = 0.5f * bendRate_ * static_cast<float>(frames);
  const auto toward = [&](float from) noexcept SPINDLE_REALTIME {
    return targetCents > from ? std::min(from + half, targetCents) : std::max(from - half, targetCents);
  };
  const float middle = toward(bendCents_);
  bendCents_ = toward(middle);
  return middle;
}

void Voice::amplify(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  float* env = ctx.scratch->ampEnv.data();
  sources_.processEnvelope(mod::V1Dest::Amp, env, frames);
  if (sources_.lfoActive(mod::V1Dest::Amp)) {
    float* lfo = ctx.scratch->ampLfo.data();
    sources_.processLfo(mod::V1Dest::Amp, lfo, frames);
    for (int i = 0; i < frames; ++i) env[i] *= dbToGain(lfo[i]);
  }
  gain_.mixInto(outLeft, outRight, ctx.scratch->left.data(), ctx.scratch->right.data(), env, frames, mix, modulated_);
}

}  // namespace spindle::engine
