#pragma once
// A merged SoundFont zone (sf2/ZoneMerge.h) as the engine's regions: generators in
// SFZ units, the default and the file's modulators as velocity curves, controller
// modulations, LFO depths and envelopes. Loader thread.
//
// Levels and times follow FluidSynth, the reference SoundFont player on Linux:
// initialAttenuation counts 0.4 of its centibels (the EMU hardware's scale), volume
// envelope decay and release fall 96 dB over their time, sustain is 0.96 of its
// centibels, the filter's Q peak comes with a gain of 1/sqrt(Q), and pan is the
// constant-power sine law at -3 dB in the middle.
//
// One zone gives one region, or several where one region cannot say it: a region per
// key when an envelope time follows the key (keynumTo*), and two velocity bands when
// a velocity switch moves the cutoff.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/Region.h"
#include "sf2/ZoneMerge.h"

namespace spindle::sf2 {

// What a zone's sample is, for address arithmetic.
struct SampleFrames {
  int32_t index = -1;      // in the instrument's sample table; -1 = not playable
  int64_t frames = -1;     // frames in the slice; -1 = unknown until decoded (SF3)
  int64_t loopStart = 0;   // the header's loop, frames from the sample's first frame
  int64_t loopEnd = 0;     // exclusive, as stored
  int originalKey = 60;
  int correction = 0;      // cents
};

// Modulators the regions could not express, by destination generator (for one
// warning each).
struct MappingNotes {
  std::set<int> unplayedModulators;
};

void appendRegions(const MergedZone& zone, const SampleFrames& sample, std::vector<Region>& out, MappingNotes& notes);

}  // namespace spindle::sf2
