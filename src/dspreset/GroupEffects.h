#pragma once
// A DecentSampler <group>'s own <effects>, which DecentSampler runs once per voice,
// played by the group's regions' own processing (loader thread):
//
//   lowpass, lowpass_4pl, lowpass_1pl, highpass, hipass, bandpass, notch
//       in order: the region's filter 1, then filter 2 (fil_type lpf_2p, lpf_1p,
//       hpf_2p, bpf_2p, brf_2p; cutoff = frequency; resonance = 20 log10(Q sqrt 2) dB,
//       so that the voice filter's Q is the effect's resonance or q)
//   peak  the next of the region's three EQ bands (peak; bw from q as the bus EQ's;
//         gain 20 log10(gain) dB)
//   gain  added to the region's volume (dB, or 20 log10 with levelUnit="linear")
//   wave_folder, wave_shaper
//         in order: the region's shaper stages 1 and 2 (Region::shapers: drive,
//         threshold; drive, driveBoost, outputLevel; the guide's defaults), which each
//         voice runs on its own signal after its filters and EQ (engine/dsp/Shaper.h)
// A third filter, a fourth EQ band, a third wave_folder or wave_shaper and every other
// type (chorus: it would need a delay line per voice; delay, reverb, ...) are reported
// as not played, once per preset, and so is a group wave_shaper's highQuality.
//
// Controls bound to a group's effect (level="group", effectIndex) move these settings:
// ControlRegions turns the differences into controller curves on the cutoff (cents),
// resonance, EQ band, volume and shaper stages (drive, threshold, driveBoost,
// outputLevel) of the group's regions. A binding to a parameter the effect at its index
// does not play (no such effect, a lowpass's FX_DRIVE...) is reported, once per preset.
#include <string>

#include <pugixml.hpp>

#include "core/Region.h"
#include "instrument/Reporter.h"

namespace spindle::dspreset {

// `overrides`: the group's settings under the controls' positions (Overrides::group),
// whose group effect attributes (groupEffectAttribute) win over the effects' own.
void applyGroupEffects(const pugi::xml_node& group, const pugi::xml_node& overrides, Region& r,
                       instrument::Reporter& report, const std::string& file);

}  // namespace spindle::dspreset
