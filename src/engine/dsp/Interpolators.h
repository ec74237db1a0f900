#pragma once
// Reading a fractional position from planar frames. Audio thread (interpolation);
// SincInterpolator's constructor allocates and runs once at startup, on the loader
// or control thread; afterwards it is immutable and safe to share across threads.
//
//   p[-1]   p[0]  x  p[1]   p[2]        x = p + frac, 0 <= frac < 1
//           |<-->|
//            frac
//
// `p` points at frame floor(pos); the caller guarantees that the frames an
// interpolator reads before and after p are readable (limits::kGuardFrames).
#include <cstdint>
#include <vector>

#include "core/Realtime.h"

namespace spindle::engine {

// The interpolation a voice reads its source with (the engine's, SetQuality, a region's
// sample_quality).
enum class Quality : uint8_t { Linear = 0, Hermite = 1, Sinc = 2, SincHigh = 3 };

}  // namespace spindle::engine

namespace spindle::engine::dsp {

// Reads p[0], p[1]. Exact on linear data.
inline float linear(float p0, float p1, float frac) noexcept SPINDLE_REALTIME { return p0 + frac * (p1 - p0); }

inline float interpolateLinear(const float* p, float frac) noexcept SPINDLE_REALTIME {
  return linear(p[0], p[1], frac);
}

// 4-point cubic Hermite with Catmull-Rom slopes through pm1 = p[-1], p0, p1, p2.
// Passes through p0 at frac 0 and is exact on data from polynomials of degree <= 2.
inline float hermite(float pm1, float p0, float p1, float p2, float frac) noexcept SPINDLE_REALTIME {
  const float c1 = 0.5f * (p1 - pm1);
  const float c2 = pm1 - 2.5f * p0 + 2.0f * p1 - 0.5f * p2;
  const float c3 = 0.5f * (p2 - pm1) + 1.5f * (p0 - p1);
  return ((c3 * frac + c2) * frac + c1) * frac + p0;
}

// Reads p[-1..2].
inline float interpolateHermite(const float* p, float frac) noexcept SPINDLE_REALTIME {
  return hermite(p[-1], p[0], p[1], p[2], frac);
}

// Block forms, for a voice's chunk: out[i] = interpolate(src + index[i], frac[i]).
// Each frame's operations are those of the single-frame functions above, so the
// results are identical (InterpolatorBlocks.cpp: linear gathers its taps into `taps`,
// 4 * frames floats of scratch, and vectorises the arithmetic; Hermite loads each
// frame's four taps at once and transposes them, and leaves `taps` alone).
void interpolateLinearBlock(const float* src, const int32_t* index, const float* frac, float* out, int frames,
                            float* taps) noexcept SPINDLE_REALTIME;
void interpolateHermiteBlock(const float* src, const int32_t* index, const float* frac, float* out, int frames,
                             float* taps) noexcept SPINDLE_REALTIME;

// Kaiser-windowed sinc over 2*halfTaps frames, tabulated at kPhases fractional
// phases and linearly interpolated between them.
//
// Anti-aliasing: for ratio > 1 (reading faster than one frame per output frame) the
// kernel's cutoff is lowered to at most 1/ratio of Nyquist. The tap count stays fixed
// (the guard area bounds it), so instead of widening the kernel the table holds one
// kernel per quarter-octave band of ratio, up to kMaxRatio; the band used is the first
// whose cutoff is at or below 1/ratio. Above kMaxRatio the last band is used.
// For ratio <= 1 the cutoff is Nyquist and frac 0 returns p[0] exactly.
class SincInterpolator {
 public:
  static constexpr int kPhases = 256;           // table rows per frame of fractional position
  static constexpr int kBandsPerOctave = 4;
  static constexpr int kBands = 17;             // ratios 1 .. 2^4
  static constexpr float kMaxRatio = 16.0f;

  explicit SincInterpolator(int halfTaps);  // 1 <= halfTaps <= limits::kGuardFrames; clamped
  int halfTaps() const noexcept { return halfTaps_; }

  // Reads p[-halfTaps+1 .. halfTaps].
  float interpolate(const float* p, float frac, float ratio) const noexcept SPINDLE_REALTIME {
    return interpolateBand(p, frac, bandForRatio(ratio));
  }

  // Additions: a voice whose ratio is fixed over a block picks the band once.
  int bandForRatio(float ratio) const noexcept SPINDLE_REALTIME;
  float interpolateBand(const float* p, float frac, int band) const noexcept SPINDLE_REALTIME;
  // Cutoff of a band as a fraction of Nyquist (1 for band 0).
  static double bandCutoff(int band) noexcept;

 private:
  // Layout: band-major, then phase row r in [0, kPhases), then taps; each row holds
  // 2*halfTaps coefficients followed by 2*halfTaps deltas to row r+1 (row kPhases
  // being row 0 shifted by one frame). Tap k weights p[k - halfTaps + 1].
  const float* row(int band, int phase) const noexcept SPINDLE_REALTIME {
    return table_.data() + (static_cast<std::size_t>(band) * kPhases + static_cast<std::size_t>(phase)) * rowSize_;
  }

  int halfTaps_;
  std::size_t rowSize_;
  std::vector<float> table_;
};

// ---------------------------------------------------------------------------
// Implementation

inline int SincInterpolator::bandForRatio(float ratio) const noexcept SPINDLE_REALTIME {
  if (!(ratio > 1.0f)) return 0;
  // Band b covers ratios up to 2^(b/4); a short scan beats log2 per frame.
  float bound = 1.0f;
  constexpr float kStep = 1.18920711500272f;  // 2^(1/4)
  for (int band = 1; band < kBands; ++band) {
    bound *= kStep;
    if (ratio <= bound * 1.0001f) return band;
  }
  return kBands - 1;
}

inline float SincInterpolator::interpolateBand(const float* p, float frac, int band) const noexcept SPINDLE_REALTIME {
  const float pos = frac * static_cast<float>(kPhases);
  int phase = static_cast<int>(pos);
  phase = phase < 0 ? 0 : (phase >= kPhases ? kPhases - 1 : phase);
  const float t = pos - static_cast<float>(phase);
  const int taps = 2 * halfTaps_;
  const float* coef = row(band, phase);
  const float* delta = coef + taps;
  const float* src = p - halfTaps_ + 1;
  float sum = 0.0f;
  for (int k = 0; k < taps; ++k) sum += src[k] * (coef[k] + t * delta[k]);
  return sum;
}

}  // namespace spindle::engine::dsp
