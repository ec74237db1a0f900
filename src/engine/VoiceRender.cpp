// Voice render stages: pitch -> fetch/interpolate -> filter -> amp/pan -> mix.
#include <algorithm>
#include <cmath>

#include "core/Limits.h"
#include "core/SimdClones.h"
#include "core/Units.h"
#include "engine/Curves.h"
#include "engine/Voice.h"
#include "engine/dsp/Mix.h"

namespace spindle::engine {

// The source positions of a chunk's frames: an array when pitch is modulated, else
// start + step * i, computed where it is needed (no array to write and read back).
struct ChunkPositions {
  const double* array = nullptr;
  double start = 0.0, step = 0.0;
  double at(int i) const noexcept SPINDLE_REALTIME { return array ? array[i] : start + step * i; }
  // One source frame per output frame from a whole frame: a sample at its root key
  // and its own rate, the most common voice of all in multi-sampled libraries.
  bool unpitched() const noexcept SPINDLE_REALTIME { return !array && step == 1.0 && start == std::floor(start); }
};

namespace {

// Interpolation kernels over a chunk, one channel at a time: `back` history frames
// and `fwd` look-ahead frames around each position's floor.
struct LinearKernel {
  int back = 0, fwd = 1;
  void operator()(const float* src, const int32_t* index, const float* frac, float* out, int frames,
                  float* taps) const noexcept SPINDLE_REALTIME {
    dsp::interpolateLinearBlock(src, index, frac, out, frames, taps);
  }
};

struct HermiteKernel {
  int back = 1, fwd = 2;
  void operator()(const float* src, const int32_t* index, const float* frac, float* out, int frames,
                  float* taps) const noexcept SPINDLE_REALTIME {
    dsp::interpolateHermiteBlock(src, index, frac, out, frames, taps);
  }
};

struct SincKernel {
  const dsp::SincInterpolator* sinc;
  int band;
  int back, fwd;
  void operator()(const float* src, const int32_t* index, const float* frac, float* out, int frames,
                  float* /*taps*/) const noexcept SPINDLE_REALTIME {
    for (int i = 0; i < frames; ++i) out[i] = sinc->interpolateBand(src + index[i], frac[i], band);
  }
};

// Asks for the frames after a span before they are read: the next chunk usually reads
// on from where this one stops, in the same array (a sample in RAM, or a ring). Each
// voice walks its own arrays, hundreds of them at once, more sequential streams than
// the hardware prefetcher follows; with the next chunk's lines already on their way,
// the interpolator's loads stop waiting on memory one cache line at a time. A
// prefetch past an array's end is harmless (it never faults); an empty span may have
// no array at all.
void prefetchAfter(const SourceSpan& span, int frames) noexcept SPINDLE_REALTIME {
  constexpr int kLineFloats = 64 / sizeof(float);
  if (span.count <= 0 || !span.left || !span.right) return;
  for (int i = 0; i < frames + kLineFloats; i += kLineFloats) {
    __builtin_prefetch(span.left + span.count + i);
    if (span.right != span.left) __builtin_prefetch(span.right + span.count + i);
  }
}

int64_t floorFrame(double position) noexcept SPINDLE_REALTIME { return static_cast<int64_t>(std::floor(position)); }

// Positions to span indices and fractions, once for both channels. A position never
// lies before `first` (the span starts at or before its floor), so truncation is the
// floor, and pos - first is exact in double: the fraction is float(pos - floor(pos)).
// Compiled for SSE2 and AVX2 (core/SimdClones.h): the conversions are most of the loop,
// and AVX2 converts four doubles where SSE2 converts two.
SPINDLE_SIMD_CLONES
void splitPositions(const double* __restrict pos, double start, double step, int64_t first, int frames,
                    int32_t* __restrict index, float* __restrict frac) noexcept SPINDLE_REALTIME {
  const double base = static_cast<double>(first);
  if (pos) {
    for (int i = 0; i < frames; ++i) {
      const double rel = pos[i] - base;
      const auto whole = static_cast<int32_t>(rel);
      index[i] = whole;
      frac[i] = static_cast<float>(rel - static_cast<double>(whole));
    }
  } else {
    for (int i = 0; i < frames; ++i) {
      const double rel = (start + step * i) - base;
      const auto whole = static_cast<int32_t>(rel);
      index[i] = whole;
      frac[i] = static_cast<float>(rel - static_cast<double>(whole));
    }
  }
}

}  // namespace

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
  if (sourceEnded_ || ampEg_.finished() || mod_.amplitudeFinished()) active_ = false;
}

void Voice::renderSounding(float* outLeft, float* outRight, int frames, const PartMix& mix,
                           RenderContext& ctx) noexcept SPINDLE_REALTIME {
  if (frames <= 0) return;
  if (!modulated_) {
    renderSpan(outLeft, outRight, frames, mix, ctx);
    return;
  }
  for (int done = 0; done < frames && !sourceEnded_ && !ampEg_.finished() && !mod_.amplitudeFinished();) {
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
  filter(s.left.data(), s.right.data(), frames, ctx);
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
  if (oscillating_) {  // a one-cycle table with oscillator_* settings (VoiceOscillator.cpp)
    osc_.render(left, right, frames, increments, increment_);
    return;
  }
  source_.setSpeed(static_cast<float>(increment_));  // the disk's read-ahead for a streamed voice
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
  ChunkPositions pos{nullptr, position_, increment_};
  if (increments) {
    double* array = ctx.scratch->positions.data();
    array[0] = position_;
    for (int i = 1; i <= frames; ++i) array[i] = array[i - 1] + static_cast<double>(increments[i - 1]);
    pos.array = array;
  }
  const int64_t end = source_.endPosition();
  int live = frames;
  while (live > 0 && floorFrame(pos.at(live - 1)) > end) --live;
  if (live < frames) sourceEnded_ = true;
  position_ = pos.at(frames);
  if (live == 0) return 0;
  const Quality quality = quality_ >= 0 ? static_cast<Quality>(quality_) : ctx.quality;
  const dsp::SincInterpolator* table = quality_ < 0 ? ctx.sinc : quality == Quality::SincHigh ? ctx.sinc16 : ctx.sinc8;
  switch (quality) {
    case Quality::Linear: return interpolate(LinearKernel{}, pos, left, right, live, ctx);
    case Quality::Hermite: return interpolate(HermiteKernel{}, pos, left, right, live, ctx);
    case Quality::Sinc:
    case Quality::SincHigh: {
      if (!table) return interpolate(HermiteKernel{}, pos, left, right, live, ctx);
      const double ratio = increments ? static_cast<double>(increments[0]) : increment_;
      const int h = table->halfTaps();
      const SincKernel sinc{table, table->bandForRatio(static_cast<float>(ratio)), h - 1, h};
      return interpolate(sinc, pos, left, right, live, ctx);
    }
  }
  return 0;
}

template <typename Kernel>
int Voice::interpolate(const Kernel& kernel, const ChunkPositions& pos, float* left, float* right, int frames,
                       RenderContext& ctx) noexcept SPINDLE_REALTIME {
  const int64_t first = floorFrame(pos.at(0)) - kernel.back;
  const int need = static_cast<int>(floorFrame(pos.at(frames - 1)) + kernel.fwd - first + 1);
  const SourceSpan span = source_.read(first, need);
  int n = frames;
  if (span.count < need) {  // the source ran dry: play what it has
    n = 0;
    while (n < frames && floorFrame(pos.at(n)) + kernel.fwd - first < span.count) ++n;
    ++ctx.underruns;
    ++underruns_;
    // No frame will come (no stream slot, or the file failed): end with a fade rather
    // than sound silence until the envelope ends.
    if (source_.starved()) fade(limits::kStealFadeSeconds);
  }
  prefetchAfter(span, need);
  int32_t* index = ctx.scratch->indices.data();
  float* frac = ctx.scratch->fractions.data();
  if (pos.unpitched()) {  // every fraction is 0, where each kernel returns p[0] exactly
    const auto at = static_cast<std::size_t>(static_cast<int64_t>(pos.start) - first);
    std::copy_n(span.left + at, n, left);
    if (stereo_) std::copy_n(span.right + at, n, right);
    return n;
  }
  splitPositions(pos.array, pos.start, pos.step, first, n, index, frac);
  // The quality was chosen once per chunk (the template argument): no branch per frame.
  float* taps = ctx.scratch->taps.data();
  kernel(span.left, index, frac, left, n, taps);
  if (stereo_) kernel(span.right, index, frac, right, n, taps);
  return n;
}

void Voice::filter(float* left, float* right, int frames, RenderContext& ctx) noexcept SPINDLE_REALTIME {
  if (hasFilter_) filterFirst(left, right, frames, ctx);
  if (!hasFilter2_) return;
  if (stereo_) {
    filter2_.process(left, right, frames);
  } else {
    filter2_.processMono(left, frames);
  }
}

void Voice::filterFirst(float* left, float* right, int frames, RenderContext& ctx) noexcept SPINDLE_REALTIME {
  if (!filterModulated_) {
    filterSpan(left, right, frames);
    return;
  }
  float* env = ctx.scratch->filEnv.data();
  float* lfo = ctx.scratch->filLfo.data();
  filEg_.process(env, frames);
  filLfo_.process(lfo, frames);
  const float depth = filEg_.depth();
  for (int i = 0; i < frames; i += kFilterStep) {
    const int len = std::min(kFilterStep, frames - i);
    const float cents = env[i] * depth + lfo[i] + modCutoffCents_;
    filter_.setParams(cutoff_ * std::exp2(cents / 1200.0f), resonance_ + modResonance_, filGain_ + modFilGain_);
    filterSpan(left + i, right + i, len);
  }
}

void Voice::filterSpan(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (stereo_) {
    filter_.process(left, right, frames);
  } else {
    filter_.processMono(left, frames);
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
  // A modulated voice reaches the gains of its control step's end at the step's end.
  const float targetLeft = modulated_ ? modLeft_ : pan.left * staticGain_ * mix.gain;
  const float targetRight = modulated_ ? modRight_ : pan.right * staticGain_ * mix.gain;
  const int rampLength = modulated_ ? rampFrames_ : kGainRampFrames;
  const float* left = ctx.scratch->left.data();
  const float* right = stereo_ ? ctx.scratch->right.data() : left;
  int done = 0;
  if (targetLeft != gainLeft_ || targetRight != gainRight_) {
    done = rampGains(left, right, env, targetLeft, targetRight, outLeft, outRight, frames, rampLength);
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
// rampLength steps in all (a segment shorter than that leaves the ramp to the
// next one, which steps from where this one stopped). Returns the frames written.
int Voice::rampGains(const float* left, const float* right, const float* env, float targetLeft, float targetRight,
                     float* outLeft, float* outRight, int frames, int rampLength) noexcept SPINDLE_REALTIME {
  const int rampFrames = std::min(frames, rampLength);
  const float stepLeft = (targetLeft - gainLeft_) / static_cast<float>(rampLength);
  const float stepRight = (targetRight - gainRight_) / static_cast<float>(rampLength);
  // Each frame's gain from the start (no running sum): the loop vectorises.
  const float startLeft = gainLeft_, startRight = gainRight_, a = widthA_, b = widthB_;
  const float* __restrict inL = left;
  const float* __restrict inR = right;
  const float* __restrict e = env;
  float* __restrict outL = outLeft;
  float* __restrict outR = outRight;
  for (int i = 0; i < rampFrames; ++i) {
    const auto t = static_cast<float>(i + 1);
    const float l = a * inL[i] + b * inR[i];
    const float r = b * inL[i] + a * inR[i];
    outL[i] += l * e[i] * (startLeft + stepLeft * t);
    outR[i] += r * e[i] * (startRight + stepRight * t);
  }
  const bool arrived = rampFrames == rampLength;
  gainLeft_ = arrived ? targetLeft : startLeft + stepLeft * static_cast<float>(rampFrames);
  gainRight_ = arrived ? targetRight : startRight + stepRight * static_cast<float>(rampFrames);
  return rampFrames;
}

}  // namespace spindle::engine
