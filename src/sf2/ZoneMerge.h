#pragma once
// The SoundFont 2.04 rules that turn presets and instruments into what one note plays
// (sections 8.2-9.5), as plain data for the region builder. Loader thread.
//
// A note on a preset plays every instrument zone, of every instrument the preset's
// zones name, whose key and velocity ranges overlap the preset zone's. Generators:
// the instrument zone's value, else its instrument's global zone's, else the default;
// the preset zone's value (else its preset's global zone's) is then added to it, except
// for the generators that only instruments may set. Modulators: the spec's defaults,
// replaced by identical instrument modulators (a local one replaces a global one), and
// preset modulators added on top.
#include <array>
#include <cstdint>
#include <vector>

#include "sf2/SoundFont.h"

namespace spindle::sf2 {

// A modulator source (SFModulator, section 8.2): its input in 0..1 through the
// source's direction, polarity and curve type. linear 0, concave 1, convex 2, switch 3.
double sourceValue(uint16_t source, double x);
// The controller slot (core/Controllers.h numbering) a source reads: a MIDI CC, 129
// channel pressure, 130 polyphonic pressure; -1 for velocity, key, the pitch wheel
// and the constant "no controller".
int sourceController(uint16_t source);
inline constexpr uint16_t kSourceVelocity = 2, kSourceKey = 3, kSourcePitchWheel = 14;
inline int sourceIndex(uint16_t source) { return source & 0x7F; }
inline bool sourceIsCc(uint16_t source) { return (source & 0x80) != 0; }

// The default modulators, as FluidSynth 2.3 defines them (its velocity-to-filter
// modulator switches on at velocity 64: the spec's own form silences soft notes).
const std::vector<Modulator>& defaultModulators();
int32_t generatorDefault(int generator);

struct MergedZone {
  size_t preset = 0;  // index into SoundFont::presets
  Range keys, velocities;
  uint16_t sample = 0;  // index into SoundFont::samples
  std::array<int32_t, kGeneratorCount> gen{};  // final values, generator units
  std::vector<Modulator> modulators;           // the effective list
};

// Every instrument zone a note on preset `p` may play.
std::vector<MergedZone> mergePreset(const SoundFont& font, size_t p);

}  // namespace spindle::sf2
