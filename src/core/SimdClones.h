#pragma once
// SPINDLE_SIMD_CLONES: a function compiled twice on x86-64, for the baseline (SSE2)
// and for AVX2, picked once when the program loads (GCC/Clang target_clones, an
// ifunc), never per call. For plain loops the compiler vectorises: AVX2 does twice
// the frames per instruction, and conversions (double <-> int, int16 -> float) that
// SSE2 spells in several steps.
//
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
