#pragma once
// Hydrogen drum kits (drumkit.xml, or a .h2drumkit archive) as an Instrument: the same
// regions an SFZ would give, so the engine never learns where they came from. Loader
// thread (reads files, allocates); bad input becomes diagnostics, never an exception.
//
// The mapping, after Hydrogen's own sampler:
//   instrument i of the list           -> key 36 + i (Hydrogen's default MIDI mapping)
//   layer min..max (velocity 0..1)     -> lovel..hivel (v/127 inside [min, max])
//   <filename> straight under an instrument (the oldest kits: no layers) -> one layer
//                                         over every velocity
//   layer gain x component gain x instrument gain x volume -> volume (dB)
//   applyVelocity                      -> a linear velocity curve (Hydrogen scales by v/127)
//   pan -1..1 (or pan_L/pan_R as a ratio, the louder side at 1) -> pan -100..100
//   layer pitch + pitchOffset          -> tune (cents)
//   randomPitchFactor                  -> pitch_random
//   muteGroup g >= 0                   -> group = off_by (a choke group)
//   isStopNote false                   -> one_shot (a drum hit plays to its end)
//   Attack/Decay/Release (frames at 44.1 kHz), Sustain 0..1 -> ampeg
//   sampleSelectionAlgo ROUND_ROBIN / RANDOM over layers sharing a velocity range
//                                      -> seq_length/seq_position, lorand/hirand
#include <cstdint>
#include <filesystem>
#include <span>

#include "instrument/Archive.h"
#include "instrument/Instrument.h"

namespace spindle::hydrogen {

// True when the XML text's root element is <drumkit_info>.
bool looksLikeDrumKit(std::span<const char> head);

// drumkit.xml, a folder holding one, or a .h2drumkit archive (unpacked first, see
// unpackArchive).
instrument::Instrument loadDrumKit(const std::filesystem::path& file);

// What one archive may unpack (instrument/Archive.h).
using instrument::kMaxArchiveBytes;
using instrument::kMaxArchiveEntries;

// Unpacks a .h2drumkit (tar, usually gzipped) under `into` and returns the folder
// holding its drumkit.xml; on failure an empty path, `error` names the archive and
// says why, and `into` is removed. Refused as instrument::unpackArchive refuses: an
// entry or a link target that is absolute or leaves `into`, an entry that is not a
// file, folder or link, and an archive past the bounds. Nothing is written outside
// `into`, nor through a link.
std::filesystem::path unpackArchive(const std::filesystem::path& archive, const std::filesystem::path& into,
                                    std::string& error);

}  // namespace spindle::hydrogen
