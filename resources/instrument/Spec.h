#pragma once
// Layout of the bundled electric piano: which keys are sampled, the velocity layers, the
// round robins, every sample's length and file name. Shared by the generator and by
// tests/resources, so both agree on what "the expected instrument" is.
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

namespace spindle::instrument {

inline constexpr int kSampleRate = 48000;
inline constexpr int kChannels = 1;
inline constexpr int kFirstKey = 36;   // C2
inline constexpr int kLastKey = 96;    // C7
inline constexpr int kKeyStep = 3;     // a sample every minor third
inline constexpr int kKeyCount = (kLastKey - kFirstKey) / kKeyStep + 1;
inline constexpr int kLowestPlayableKey = 21;   // A0: the lowest sample stretches down
inline constexpr int kHighestPlayableKey = 108; // C8: the highest sample stretches up
inline constexpr int kRoundRobins = 2;
inline constexpr double kReleaseSeconds = 0.4;  // length of every key-off sample
inline constexpr double kReleasePeakLevel = 0.3;

struct VelocityLayer {
  int loVel;
  int hiVel;
  double strike;     // normalised hammer strike strength, 0..1, drives the synthesis
  double peakLevel;  // linear peak of the rendered sample
};

inline constexpr std::array<VelocityLayer, 3> kLayers{{
    {1, 52, 0.30, 0.35},
    {53, 96, 0.62, 0.58},
    {97, 127, 1.00, 0.89},
}};

inline constexpr int sampledKey(int index) { return kFirstKey + index * kKeyStep; }

// Keys each sample covers: a minor third around its centre (-1..+1), with the outermost
// samples stretched to the ends of the 88-key range.
inline constexpr int loKeyOf(int index) { return index == 0 ? kLowestPlayableKey : sampledKey(index) - 1; }
inline constexpr int hiKeyOf(int index) {
  return index == kKeyCount - 1 ? kHighestPlayableKey : sampledKey(index) + 1;
}

// Note-off release time of the sustain regions: 0.5 s in the bass, 0.2 s at the top, as
// the damper needs longer to stop a long, heavy tine.
inline double releaseTime(int key) { return 0.5 * std::pow(0.4, (key - kFirstKey) / 60.0); }

inline double keyFrequency(int key) { return 440.0 * std::exp2((key - 69) / 12.0); }

// Time for the tine to fall by 60 dB: 6 s at C2 down to 2 s at C7, exponential in key.
inline double decaySeconds(int key) { return 6.0 * std::pow(3.0, -(key - kFirstKey) / 60.0); }

// Sustain samples end where the tine has decayed by 60 dB (the tail is faded out).
inline std::int64_t sustainFrames(int key) {
  return static_cast<std::int64_t>(std::lround(decaySeconds(key) * kSampleRate));
}
inline std::int64_t releaseFrames() {
  return static_cast<std::int64_t>(std::lround(kReleaseSeconds * kSampleRate));
}

inline std::string keyTag(int key) {
  std::string digits = std::to_string(key);
  return std::string(3 - digits.size(), '0') + digits;
}
// e.g. "ep_048_v2_rr1.flac"; layer and roundRobin are 0-based here, 1-based in the name.
inline std::string sustainFileName(int key, int layer, int roundRobin) {
  return "ep_" + keyTag(key) + "_v" + std::to_string(layer + 1) + "_rr" + std::to_string(roundRobin + 1) + ".flac";
}
inline std::string releaseFileName(int key) { return "ep_" + keyTag(key) + "_rel.flac"; }

inline constexpr const char* kSfzFileName = "spindle-ep.sfz";
inline constexpr const char* kMidiFileName = "demo.mid";
inline constexpr const char* kSampleDir = "samples";

}  // namespace spindle::instrument
