#pragma once
// Conversions between musical units. Small, pure, usable on any thread.
#include <cmath>

namespace spindle {

inline float dbToGain(float db) noexcept { return std::pow(10.0f, db * 0.05f); }
inline float gainToDb(float gain) noexcept { return 20.0f * std::log10(gain); }
inline double centsToRatio(double cents) noexcept { return std::exp2(cents / 1200.0); }
inline double ratioToCents(double ratio) noexcept { return 1200.0 * std::log2(ratio); }
inline double noteToHz(double note) noexcept { return 440.0 * std::exp2((note - 69.0) / 12.0); }

}  // namespace spindle
