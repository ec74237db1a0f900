#pragma once
// The white noise the bus effect render tests play: 3 s of uniform noise in -0.5..0.5
// from a 32-bit LCG (seed 12345), 16-bit mono, written as a WAV file.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "stream/TestAudioFiles.h"

namespace spindle::test {

inline void writeNoise(const std::filesystem::path& file, int rate) {
  std::vector<int16_t> frames(static_cast<size_t>(rate) * 3);
  uint32_t x = 12345;
  for (int16_t& f : frames) {
    x = x * 1664525u + 1013904223u;
    const double v = static_cast<double>(x >> 8) / 16777216.0 - 0.5;
    f = static_cast<int16_t>(std::lround(v * 32767.0));
  }
  writeWav16(file, 1, frames, static_cast<uint32_t>(rate));
}

}  // namespace spindle::test
