// Voice: the fetch stage. The source's frames arrive as spans, chunk by chunk; each
// chunk's positions split once into span indices and fractions, then the kernel of the
// voice's quality interpolates them into the scratch left/right.
#include <algorithm>
#include <cmath>

#include "core/Limits.h"
#include "core/SimdClones.h"
#include "engine/voices/Voice.h"

namespace spindle::engine {

// The source positions of a chunk's frames: an array when pitch is modulated, else
// start + step * (skip + i) from the voice's anchor (Voice::PositionAnchor), computed
// where it is needed (no array to write and read back).
struct ChunkPositions {
  const double* array = nullptr;
  double start = 0.0, step = 0.0, skip = 0.0;
  double at(int i) const noexcept SPINDLE_REALTIME { return array ? array[i] : start + step * (skip + i); }
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
void splitPositions(const double* __restrict pos, double start, double step, double skip, int64_t first, int frames,
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
      const double rel = (start + step * (skip + i)) - base;
      const auto whole = static_cast<int32_t>(rel);
      index[i] = whole;
      frac[i] = static_cast<float>(rel - static_cast<double>(whole));
    }
  }
}

}  // namespace

void Voice::fetch(float* left, float* right, int frames, const float* increments, RenderContext& ctx) noexcept
    SPINDLE_REALTIME {
  if (oscillating_) {  // a one-cycle table with oscillator_* settings (VoiceOscillator.cpp)
    osc_.render(left, right, frames, increments, pitch_.increment());
    return;
  }
  source_.setSpeed(static_cast<float>(pitch_.increment()));  // the disk's read-ahead for a streamed voice
  // Chunks lie on a grid of the voice's own frames, and the sinc kernel's band is chosen
  // at each chunk's first frame: the frames never depend on where blocks end.
  int done = 0;
  while (done < frames) {
    const int into = static_cast<int>(fetched_ % RenderScratch::kChunkFrames);
    const int chunk = std::min(RenderScratch::kChunkFrames - into, frames - done);
    if (into == 0) bandRatio_ = increments ? static_cast<double>(increments[done]) : pitch_.increment();
    fetched_ += chunk;
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
  ChunkPositions pos{nullptr, 0.0, pitch_.increment(), 0.0};
  if (increments) {
    double* array = ctx.scratch->positions.data();
    array[0] = position_;
    for (int i = 0; i < frames; ++i) {
      const auto increment = static_cast<double>(increments[i]);
      if (increment != anchor_.increment) anchor_ = {array[i], increment, 0};
      array[i + 1] = anchor_.position + increment * static_cast<double>(++anchor_.frames);
    }
    pos.array = array;
  } else {
    if (pos.step != anchor_.increment) anchor_ = {position_, pos.step, 0};
    pos.start = anchor_.position;
    pos.skip = static_cast<double>(anchor_.frames);
    anchor_.frames += frames;
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
      const int h = table->halfTaps();
      const SincKernel sinc{table, table->bandForRatio(static_cast<float>(bandRatio_)), h - 1, h};
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
    const auto at = static_cast<std::size_t>(static_cast<int64_t>(pos.at(0)) - first);
    std::copy_n(span.left + at, n, left);
    if (stereo_) std::copy_n(span.right + at, n, right);
    return n;
  }
  splitPositions(pos.array, pos.start, pos.step, pos.skip, first, n, index, frac);
  // The quality was chosen once per chunk (the template argument): no branch per frame.
  float* taps = ctx.scratch->taps.data();
  kernel(span.left, index, frac, left, n, taps);
  if (stereo_) kernel(span.right, index, frac, right, n, taps);
  return n;
}

}  // namespace spindle::engine
