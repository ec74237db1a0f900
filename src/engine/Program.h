#pragma once
// Program: one playable instrument as the engine sees it.
//
// Built on the loader thread from a parsed SFZ instrument and the sample pool, then
// handed to the engine by pointer through its command FIFO. Immutable from then on:
// the audio thread only reads it. When a part switches instruments the engine hands
// the old pointer back through its trash FIFO and the control side frees it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Region.h"
#include "core/SampleData.h"

namespace spindle::engine {

struct Program {
  std::string name;
  std::vector<Region> regions;
  // Indexed by Region::sampleIndex; nullptr for a sample that failed to load, in
  // which case the regions using it never sound.
  std::vector<const SampleData*> samples;
  int swDefault = -1;  // keyswitch active before any is pressed; -1 = none

  // Lookup tables and other derived data the engine builds for itself go below this
  // line and are filled by prepare(), which must run before the Program is published.
  void prepare();
  std::vector<uint32_t> regionsByKey[128];  // indices of regions whose lokey..hikey or keyswitch range holds the key
  // Keys that set the part's sw_last state when pressed: every region's sw_last key,
  // and the whole sw_lokey..sw_hikey range of a region that narrows it from 0..127.
  std::array<bool, 128> isKeyswitch{};
  // sw_last before any keyswitch is pressed: swDefault, else the first region's sw_default.
  int defaultKeyswitch = -1;
};

}  // namespace spindle::engine
