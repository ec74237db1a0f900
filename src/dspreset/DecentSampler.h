#pragma once
// DecentSampler presets (.dspreset, and .dsbundle folders holding one) as an Instrument:
// the regions an SFZ would give. Loader thread; bad input becomes diagnostics.
//
// The mapping:
//   <groups> -> <group> -> <sample>     settings inherited downwards, the nearest wins;
//                                       volume (dB or a 0..1 factor) and tuning add up
//                                       (dspreset/SampleSettings.h)
//   loNote hiNote rootNote loVel hiVel  key and velocity ranges, pitch_keycenter; note
//                                       names as DecentSampler writes them (C3 = 60)
//   start end                           offset, end
//   loopEnabled loopStart loopEnd       loop_continuous with the loop points
//   attack decay sustain release        ampeg (seconds; sustain 0..1)
//   ampVelTrack pitchKeyTrack pan       amp_veltrack, pitch_keytrack, pan
//   trigger                             attack, release, first, legato
//   seqMode round_robin / random        seq_length/seq_position, lorand/hirand
//   tags / silencedByTags               group / off_by (a choke group per tag)
// <modulators> play per voice (dspreset/Modulators.h). What is not played (effects,
// note sequences, glide, oscillators, the modulators Modulators.h names) is reported
// once each.
#include <filesystem>
#include <span>
#include <string_view>

#include "instrument/Instrument.h"

namespace spindle::dspreset {

// True when the XML text's root element is <DecentSampler>.
bool looksLikePreset(std::span<const char> head);

// A .dspreset file, or a .dsbundle folder (its first .dspreset, by name).
instrument::Instrument loadPreset(const std::filesystem::path& file);

// DecentSampler's note names: "C3" = 60, "C#3"/"Db3" = 61; or a number. -1 when neither.
// (SampleSettings.cpp, which reads them.)
int noteNumber(std::string_view text);

}  // namespace spindle::dspreset
