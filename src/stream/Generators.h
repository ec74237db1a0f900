#pragma once
// Built-in "generator" samples: SFZ's sample=*sine and friends.
//
// Each one is a short looped table that behaves like a sample file, so the engine
// plays it with no special case. The periodic ones hold exactly one cycle of
// kWavetableFrames frames and declare the sample rate at which that cycle plays
// middle C (MIDI key 60, 261.63 Hz):
//
//   sampleRate = kWavetableFrames * noteToHz(60)   (= 267,904 Hz for 1024 frames)
//
// and are marked `oscillator`: the engine plays them at the pitch of the region's
// pitch_keycenter when that key is played (the table's rate scaled from key 60 to the
// keycenter), as sfizz does. So a region sounds at the pitch of the key played with the
// default keytrack, whatever its keycenter, as the sfz-tests files that use *sine expect
// (e.g. "pitch eg all huge range" states its pitch excursions relative to the key). The
// engine resamples from that rate like any other file. Loops cover the whole table.
//
//   *sine                  one sine cycle
//   *triangle, *tri        band-limited triangle (odd harmonics up to kHarmonics)
//   *saw                   band-limited sawtooth (harmonics up to kHarmonics)
//   *square                band-limited square (odd harmonics up to kHarmonics)
//   *noise                 white noise, uniform in [-1, 1), 65,536 frames at 48 kHz,
//                          always the same sequence (renders stay reproducible)
//   *silence               1,024 zero frames at 48 kHz
//
// The harmonic limit keeps the tables free of aliasing at middle C and an octave
// or so above (64 * 261.63 Hz = 16.7 kHz).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace spindle::stream {

inline constexpr int64_t kWavetableFrames = 1024;
inline constexpr int kHarmonics = 64;

struct GeneratedSample {
  std::vector<float> frames;  // mono
  double sampleRate = 0.0;
  int64_t loopStart = 0, loopEnd = 0;  // inclusive, like SFZ
  bool oscillator = false;             // one periodic cycle (see above)
};

// True for names SFZ reserves for generators: they begin with '*'.
bool isGeneratorName(std::string_view name) noexcept;
// The table for a generator name; nullopt for an unknown generator.
std::optional<GeneratedSample> generateSample(std::string_view name);

}  // namespace spindle::stream
