#pragma once
// The last stage of a voice: its rendered frames times envelope and gain, added to the
// output. Audio thread only; header-only so the loops inline into the voice.
//
//   out += (source * env[i]) * gain          one output channel, gain constant
//
// The loops have no branch, no call and no loop-carried dependency, with unaliased
// (restrict) pointers, so the compiler vectorises them (check with -fopt-info-vec).
// The products keep the order (source * env) * gain: a vectorised frame is
// bit-identical to a scalar one.
//
// Width (stereo files, mod/Curves.h): l = a*L + b*R, r = b*L + a*R. At a = 1, b = 0 (width
// 100 %, and every mono source, whose right channel is its left) that is exactly L and
// R for finite frames, so addPlain() skips the width products.
#include "core/Realtime.h"

namespace spindle::engine::dsp {

// out += src * env[i] * gain, for one channel.
inline void addScaled(const float* __restrict src, const float* __restrict env, float gain,
                      float* __restrict out, int frames) noexcept SPINDLE_REALTIME {
  for (int i = 0; i < frames; ++i) out[i] += src[i] * env[i] * gain;
}

// Width a, b applied to a stereo pair, then enveloped and scaled into both outputs.
inline void addWidth(const float* __restrict left, const float* __restrict right, const float* __restrict env,
                     float a, float b, float gainLeft, float gainRight, float* __restrict outLeft,
                     float* __restrict outRight, int frames) noexcept SPINDLE_REALTIME {
  for (int i = 0; i < frames; ++i) {
    const float l = a * left[i] + b * right[i];
    const float r = b * left[i] + a * right[i];
    outLeft[i] += l * env[i] * gainLeft;
    outRight[i] += r * env[i] * gainRight;
  }
}

}  // namespace spindle::engine::dsp
