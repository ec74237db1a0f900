// The block interpolators (Interpolators.h), compiled twice on x86-64: for the
// baseline (SSE2) and for AVX2, picked once when the program loads (GCC/Clang
// target_clones, an ifunc), never per call. AVX2 without FMA: every operation is the
// same IEEE single-precision one in both clones, so both give identical results; the
// AVX2 clone does the arithmetic 8 frames at a time with three-operand instructions.
#include <cstdint>

#include "engine/dsp/Interpolators.h"

// Sanitizer builds get the baseline only: an ifunc resolver runs while the program is
// being relocated, before ThreadSanitizer's runtime is up, and crashes it.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SPINDLE_NO_SIMD_CLONES
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SPINDLE_NO_SIMD_CLONES
#endif

#if defined(__x86_64__) && defined(__has_attribute) && !defined(SPINDLE_NO_SIMD_CLONES)
#if __has_attribute(target_clones)
#define SPINDLE_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef SPINDLE_SIMD_CLONES
#define SPINDLE_SIMD_CLONES
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

SPINDLE_SIMD_CLONES
void interpolateHermiteBlock(const float* src, const int32_t* __restrict index, const float* __restrict frac,
                             float* __restrict out, int frames, float* __restrict taps) noexcept SPINDLE_REALTIME {
  float* __restrict a = taps;
  float* __restrict b = taps + frames;
  float* __restrict c = taps + 2 * frames;
  float* __restrict d = taps + 3 * frames;
  for (int i = 0; i < frames; ++i) {
    const float* p = src + index[i];
    a[i] = p[-1];
    b[i] = p[0];
    c[i] = p[1];
    d[i] = p[2];
  }
  for (int i = 0; i < frames; ++i) out[i] = hermite(a[i], b[i], c[i], d[i], frac[i]);
}

}  // namespace spindle::engine::dsp
