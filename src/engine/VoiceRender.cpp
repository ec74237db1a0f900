// Voice render stages: pitch -> fetch/interpolate -> filter -> amp/pan -> mix.
#include <algorithm>
#include <cmath>

#include "core/Limits.h"
#include "core/Units.h"
#include "engine/Curves.h"
#include "engine/Voice.h"

namespace spindle::engine {

namespace {

// Interpolation kernels: `back` history frames and `fwd` look-ahead frames around p[0].
struct LinearKernel {
  int back = 0, fwd = 1;
  float operator()(const float* p, float frac) const noexcept SPINDLE_REALTIME {
    return dsp::interpolateLinear(p, frac);
  }
};

struct HermiteKernel {
  int back = 1, fwd = 2;
  float operator()(const float* p, float frac) const noexcept SPINDLE_REALTIME {
    return dsp::interpolateHermite(p, frac);
  }
};

struct SincKernel {
  const dsp::SincInterpolator* sinc;
  int band;
  int back, fwd;
  float operator()(const float* p, float frac) const noexcept SPINDLE_REALTIME {
    return sinc->interpolateBand(p, frac, band);
  }
};

int64_t floorFrame(double position) noexcept SPINDLE_REALTIME { return static_cast<int64_t>(std::floor(position)); }

}  // namespace

void Voice::render(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  if (!active_) return;
  int offset = 0;
  if (delayFrames_ > 0) {
    offset = static_cast<int>(std::min<int64_t>(delayFrames_, frames));
    delayFrames_ -= offset;
    if (offset == frames) return;
  }
  const int n = frames - offset;
  RenderScratch& s = *ctx.scratch;
  computeIncrements(s.pitchEnv.data(), s.pitchLfo.data(), n, mix);
  fetch(s.left.data(), s.right.data(), n, pitchModulated_ ? s.pitchEnv.data() : nullptr, ctx);
  filter(s.left.data(), s.right.data(), n, ctx);
  amplify(outLeft + offset, outRight + offset, n, mix, ctx);
  if (sourceEnded_ || ampEg_.finished()) active_ = false;
}

// Unmodulated pitch: one increment for the segment. Modulated: per-frame increments,
// written over pitchEnv.
void Voice::computeIncrements(float* pitchEnv, float* pitchLfo, int frames, const PartMix& mix) noexcept
    SPINDLE_REALTIME {
  const double bend = static_cast<double>(curves::bendCents(*region_, mix.bend));
  increment_ = std::min(baseIncrement_ * centsToRatio(bend), RenderScratch::kMaxIncrement);
  if (!pitchModulated_) return;
  pitchEg_.process(pitchEnv, frames);
  pitchLfo_.process(pitchLfo, frames);
  const float depth = pitchEg_.depth();
  for (int i = 0; i < frames; ++i) {
    const double cents = bend + static_cast<double>(pitchEnv[i] * depth + pitchLfo[i]);
    pitchEnv[i] = static_cast<float>(std::min(baseIncrement_ * std::exp2(cents / 1200.0), RenderScratch::kMaxIncrement));
  }
}

void Voice::fetch(float* left, float* right, int frames, const float* increments, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  int done = 0;
  while (done < frames) {
    const int chunk = std::min(RenderScratch::kChunkFrames, frames - done);
    const int made = sourceEnded_ ? 0 : fetchChunk(left + done, right + done, chunk, increments ? increments + done : nullptr, ctx);
    std::fill(left + done + made, left + done + chunk, 0.0f);
    std::fill(right + done + made, right + done + chunk, 0.0f);
    done += chunk;
  }
}

// One chunk: positions, the frames before the source's end, then the kernel of the
// current quality. Returns the frames written; the caller zeroes the rest.
int Voice::fetchChunk(float* left, float* right, int frames, const float* increments, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  double* pos = ctx.scratch->positions.data();
  for (int i = 0; i <= frames; ++i) {
    pos[i] = increments ? (i == 0 ? position_ : pos[i - 1] + static_cast<double>(increments[i - 1]))
                        : position_ + increment_ * i;
  }
  const int64_t end = source_.endPosition();
  int live = frames;
  while (live > 0 && floorFrame(pos[live - 1]) > end) --live;
  if (live < frames) sourceEnded_ = true;
  position_ = pos[frames];
  if (live == 0) return 0;
  switch (ctx.quality) {
    case Quality::Linear: return interpolate(LinearKernel{}, left, right, live, ctx);
    case Quality::Hermite: return interpolate(HermiteKernel{}, left, right, live, ctx);
    case Quality::Sinc:
    case Quality::SincHigh: {
      if (!ctx.sinc) return interpolate(HermiteKernel{}, left, right, live, ctx);
      const double ratio = increments ? static_cast<double>(increments[0]) : increment_;
      const int h = ctx.sinc->halfTaps();
      return interpolate(SincKernel{ctx.sinc, ctx.sinc->bandForRatio(static_cast<float>(ratio)), h - 1, h}, left,
                         right, live, ctx);
    }
  }
  return 0;
}

template <typename Kernel>
int Voice::interpolate(const Kernel& kernel, float* left, float* right, int frames, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  const double* pos = ctx.scratch->positions.data();
  const int64_t first = floorFrame(pos[0]) - kernel.back;
  const int need = static_cast<int>(floorFrame(pos[frames - 1]) + kernel.fwd - first + 1);
  const SourceSpan span = source_.read(first, need);
  int n = frames;
  if (span.count < need) {  // the source ran dry: play what it has
    n = 0;
    while (n < frames && floorFrame(pos[n]) + kernel.fwd - first < span.count) ++n;
    ++ctx.underruns;
    ++underruns_;
    // No frame will come (no stream slot, or the file failed): end with a fade rather
    // than sound silence until the envelope ends.
    if (source_.starved()) fade(limits::kStealFadeSeconds);
  }
  for (int i = 0; i < n; ++i) {
    const int64_t whole = floorFrame(pos[i]);
    left[i] = kernel(span.left + (whole - first), static_cast<float>(pos[i] - static_cast<double>(whole)));
  }
  if (stereo_) {
    for (int i = 0; i < n; ++i) {
      const int64_t whole = floorFrame(pos[i]);
      right[i] = kernel(span.right + (whole - first), static_cast<float>(pos[i] - static_cast<double>(whole)));
    }
  } else {
    std::copy(left, left + n, right);
  }
  return n;
}

void Voice::filter(float* left, float* right, int frames, RenderContext& ctx) noexcept SPINDLE_REALTIME {
  if (!hasFilter_) return;
  if (!filterModulated_) {
    filter_.process(left, right, frames);
    return;
  }
  float* env = ctx.scratch->filEnv.data();
  float* lfo = ctx.scratch->filLfo.data();
  filEg_.process(env, frames);
  filLfo_.process(lfo, frames);
  const float depth = filEg_.depth();
  for (int i = 0; i < frames; i += kFilterStep) {
    const int len = std::min(kFilterStep, frames - i);
    const float cents = env[i] * depth + lfo[i];
    filter_.setParams(cutoff_ * std::exp2(cents / 1200.0f), resonance_);
    filter_.process(left + i, right + i, len);
  }
}

void Voice::amplify(float* outLeft, float* outRight, int frames, const PartMix& mix, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  float* env = ctx.scratch->ampEnv.data();
  ampEg_.process(env, frames);
  if (ampLfo_.active()) {
    float* lfo = ctx.scratch->ampLfo.data();
    ampLfo_.process(lfo, frames);
    for (int i = 0; i < frames; ++i) env[i] *= dbToGain(lfo[i]);
  }
  const curves::PanGains pan = curves::panGains(panOffset_ + mix.pan);
  const float targetLeft = pan.left * staticGain_ * mix.gain;
  const float targetRight = pan.right * staticGain_ * mix.gain;
  const bool ramp = targetLeft != gainLeft_ || targetRight != gainRight_;
  const int rampFrames = ramp ? std::min(frames, kGainRampFrames) : 0;
  const float stepLeft = ramp ? (targetLeft - gainLeft_) / static_cast<float>(kGainRampFrames) : 0.0f;
  const float stepRight = ramp ? (targetRight - gainRight_) / static_cast<float>(kGainRampFrames) : 0.0f;
  const float* left = ctx.scratch->left.data();
  const float* right = ctx.scratch->right.data();
  for (int i = 0; i < frames; ++i) {
    if (i < rampFrames) {
      gainLeft_ += stepLeft;
      gainRight_ += stepRight;
    } else if (i == rampFrames && rampFrames == kGainRampFrames) {
      gainLeft_ = targetLeft;
      gainRight_ = targetRight;
    }
    const float l = widthA_ * left[i] + widthB_ * right[i];
    const float r = widthB_ * left[i] + widthA_ * right[i];
    outLeft[i] += l * env[i] * gainLeft_;
    outRight[i] += r * env[i] * gainRight_;
  }
  if (rampFrames == kGainRampFrames) {
    gainLeft_ = targetLeft;
    gainRight_ = targetRight;
  }
}

}  // namespace spindle::engine
