#pragma once
// One DecentSampler <sample>'s settings as the Region fields they set. Each attribute is
// looked up from the sample outwards, the controls' settings first at each level
// (dspreset/Controls.h): the nearest wins, except volume and tuning, which add up over
// <sample>, <group> and <groups>. Loader thread.
//
//   loNote hiNote rootNote loVel hiVel  lokey hikey pitch_keycenter lovel hivel
//   volume tuning groupTuning globalTuning pan ampVelTrack pitchKeyTrack
//   attack decay sustain release        ampeg (seconds; sustain 0..1)
//   start end loopEnabled loopStart loopEnd loopCrossfade trigger
#include <array>

#include <pugixml.hpp>

#include "core/Region.h"

namespace spindle::dspreset {

// The nodes a sample's settings come from, nearest first: <sample>, the controls'
// settings for its <group>, the <group>, theirs for <groups>, <groups>.
struct Scope {
  std::array<pugi::xml_node, 5> levels;

  pugi::xml_attribute find(const char* name) const;
  // The attribute at one element, the controls' setting first: 0 sample, 1 group, 2 groups.
  pugi::xml_attribute at(int level, const char* name) const;
  double number(const char* name, double fallback) const;
  int note(const char* name, int fallback) const;
};

// Sets the fields above in `r`; the rest of `r` is left as it is.
void applySettings(const Scope& s, Region& r);

}  // namespace spindle::dspreset
