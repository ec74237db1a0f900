#pragma once
// Measurements of an effect's response for the reverb and chorus tests: a mono input
// run through the effect block by block, the energy it gives each side, and the
// reverberation time T30 from the backward-integrated energy decay (Schroeder).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace spindle::test {

inline constexpr double kEffectRate = 48000.0;

struct EffectResponse {
  std::vector<float> left, right;
};

template <class Effect>
EffectResponse runEffect(Effect& effect, const std::vector<float>& in, int block = 256) {
  EffectResponse out{std::vector<float>(in.size(), 0.0f), std::vector<float>(in.size(), 0.0f)};
  for (size_t at = 0; at < in.size(); at += static_cast<size_t>(block)) {
    const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), in.size() - at));
    effect.process(in.data() + at, out.left.data() + at, out.right.data() + at, n);
  }
  return out;
}

// A 20 ms burst of uniform noise in [-1, 1] (a fixed linear congruential sequence),
// then silence up to `frames`.
inline std::vector<float> noiseBurst(size_t frames) {
  std::vector<float> x(frames, 0.0f);
  uint32_t state = 1;
  for (size_t i = 0; i < 960 && i < frames; ++i) {
    state = state * 1664525u + 1013904223u;
    x[i] = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
  }
  return x;
}

inline double energy(const std::vector<float>& x) {
  double e = 0.0;
  for (float v : x) e += static_cast<double>(v) * static_cast<double>(v);
  return e;
}

// Seconds between the backward-integrated decay's -5 and -35 dB points, times 2: the
// time to fall 60 dB at the rate of the first 30 dB after `from`.
inline double t30(const std::vector<float>& x, size_t from) {
  std::vector<double> edc(x.size() - from + 1, 0.0);
  for (size_t i = x.size(); i-- > from;) edc[i - from] = edc[i - from + 1] + static_cast<double>(x[i]) * static_cast<double>(x[i]);
  const auto first = [&](double db) {
    size_t i = 0;
    while (i + 1 < edc.size() && 10.0 * std::log10(edc[i] / edc[0]) > db) ++i;
    return i;
  };
  return 2.0 * static_cast<double>(first(-35.0) - first(-5.0)) / kEffectRate;
}

}  // namespace spindle::test
