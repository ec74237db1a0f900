#pragma once
// Prng: the engine's own random numbers (lorand/hirand, *_random opcodes).
// Audio thread only. SplitMix64: tiny state, no allocation, and the same sequence
// for the same seed on every platform, so renders are reproducible from
// EngineConfig::randomSeed.
#include <cstdint>

#include "core/Realtime.h"

namespace spindle::engine {

class Prng {
 public:
  explicit Prng(uint64_t seed = 1) noexcept : state_(seed) {}

  uint64_t next() noexcept SPINDLE_REALTIME {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1), 24 bits of resolution.
  float uniform() noexcept SPINDLE_REALTIME { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
  // Uniform in [-1, 1).
  float bipolar() noexcept SPINDLE_REALTIME { return 2.0f * uniform() - 1.0f; }

 private:
  uint64_t state_;
};

}  // namespace spindle::engine
