// The block interpolators (Interpolators.h).
//
// Linear: compiled for SSE2 and for AVX2 (core/SimdClones.h).
//
// Hermite, the engine's default and its costliest loop, is written out in SSE2 on
// x86-64 (every x86-64 has it): a frame's four taps p[-1..2] are one unaligned
// 4-float load, and a 4x4 transpose turns four frames' loads into the vectors of
// p[-1], p[0], p[1] and p[2], with no scalar gather and no stores to a tap scratch.
// No FMA: every operation is the IEEE single-precision one hermite() does, in its
// order, so the results are identical to the single-frame function's. (An AVX form,
// 8 frames with a transpose per 128-bit lane, made the dense piano render 5 % slower
// on this project's Xeon VM than the scalar gather it replaced; SSE2 made it 8 %
// faster.)
//
// Under ThreadSanitizer the scalar loop runs instead: GCC checks each 16-byte load
// through TSan's slowest path (__tsan_read_range), which made the dense renders of
// tests/stream_audio 2.4 times slower. The scalar loop reads the same four taps per
// frame (four 4-byte loads, each checked on the fast path) and gives the same values
// (tests/engine/dsp, run by every other build, holds the SSE2 loop to them).
#include <cstdint>

#include "core/SimdClones.h"
#include "engine/dsp/Interpolators.h"

#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
#define SPINDLE_HERMITE_SSE2 1
#include <immintrin.h>
#endif

namespace spindle::engine::dsp {

SPINDLE_SIMD_CLONES
void interpolateLinearBlock(const float* src, const int32_t* __restrict index, const float* __restrict frac,
                            float* __restrict out, int frames, float* __restrict taps) noexcept SPINDLE_REALTIME {
  float* __restrict a = taps;
  float* __restrict b = taps + frames;
  for (int i = 0; i < frames; ++i) {
    a[i] = src[index[i]];
    b[i] = src[index[i] + 1];
  }
  for (int i = 0; i < frames; ++i) out[i] = linear(a[i], b[i], frac[i]);
}

namespace {

// Frames [from, frames) one at a time: the tail the vector loops leave.
void hermiteScalar(const float* src, const int32_t* index, const float* frac, float* out, int from,
                   int frames) noexcept SPINDLE_REALTIME {
  for (int i = from; i < frames; ++i) out[i] = interpolateHermite(src + index[i], frac[i]);
}

#if defined(SPINDLE_HERMITE_SSE2)

// hermite() on 4 frames, operation for operation (Interpolators.h).
inline __m128 hermite4(__m128 pm1, __m128 p0, __m128 p1, __m128 p2, __m128 f) noexcept SPINDLE_REALTIME {
  const __m128 half = _mm_set1_ps(0.5f);
  const __m128 c1 = _mm_mul_ps(half, _mm_sub_ps(p1, pm1));
  const __m128 c2 = _mm_sub_ps(_mm_add_ps(_mm_sub_ps(pm1, _mm_mul_ps(_mm_set1_ps(2.5f), p0)), _mm_mul_ps(_mm_set1_ps(2.0f), p1)),
                               _mm_mul_ps(half, p2));
  const __m128 c3 = _mm_add_ps(_mm_mul_ps(half, _mm_sub_ps(p2, pm1)), _mm_mul_ps(_mm_set1_ps(1.5f), _mm_sub_ps(p0, p1)));
  return _mm_add_ps(_mm_mul_ps(_mm_add_ps(_mm_mul_ps(_mm_add_ps(_mm_mul_ps(c3, f), c2), f), c1), f), p0);
}

void hermiteSse(const float* src, const int32_t* index, const float* frac, float* out,
                int frames) noexcept SPINDLE_REALTIME {
  int i = 0;
  for (; i + 4 <= frames; i += 4) {
    // Frame i + k's taps p[-1..2] in row k; the transpose makes the rows columns.
    __m128 pm1 = _mm_loadu_ps(src + index[i] - 1);
    __m128 p0 = _mm_loadu_ps(src + index[i + 1] - 1);
    __m128 p1 = _mm_loadu_ps(src + index[i + 2] - 1);
    __m128 p2 = _mm_loadu_ps(src + index[i + 3] - 1);
    _MM_TRANSPOSE4_PS(pm1, p0, p1, p2);
    const __m128 f = _mm_loadu_ps(frac + i);
    _mm_storeu_ps(out + i, hermite4(pm1, p0, p1, p2, f));
  }
  hermiteScalar(src, index, frac, out, i, frames);
}

#endif

}  // namespace

void interpolateHermiteBlock(const float* src, const int32_t* __restrict index, const float* __restrict frac,
                             float* __restrict out, int frames, float* /*taps*/) noexcept SPINDLE_REALTIME {
#if defined(SPINDLE_HERMITE_SSE2)
  hermiteSse(src, index, frac, out, frames);
#else
  hermiteScalar(src, index, frac, out, 0, frames);
#endif
}

}  // namespace spindle::engine::dsp
