#pragma once
// Bitwig / PreSonus .multisample instruments as an Instrument: the regions an SFZ would
// give. A .multisample is a zip (or a folder) holding multisample.xml and the sample
// files. Loader thread; bad input becomes diagnostics, never an exception.
//
// The mapping (multisample/Zone.h reads one <sample>):
//   <sample file sample-start sample-stop>   the sample, offset, end (stop is exclusive)
//   gain (dB)                                volume
//   <key low high root track tune>           lokey hikey pitch_keycenter,
//                                            pitch_keytrack (track x 100), tune (x 100)
//   <key low-fade high-fade>, <velocity ...> xfin/xfout over the zone's lowest and
//                                            highest keys (velocities)
//   <velocity low high>                      lovel hivel
//   <loop mode start stop fade>              loop_continuous with the loop points (stop
//                                            exclusive), crossfade fade x (stop - start)
//   reverse                                  direction=reverse
//   zone-logic round-robin                   seq_length/seq_position over the zones
//                                            sharing key and velocity ranges
//   <group name>, group                      each region's label
// Unsupported attributes and elements are warnings naming the element and its line.
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "instrument/Instrument.h"

namespace spindle::multisample {

// The name of the mapping file inside a .multisample.
inline constexpr const char* kMappingFile = "multisample.xml";

// True when the XML text's root element is <multisample>.
bool looksLikeMultisample(std::span<const char> head);

// True when `file` is a zip holding multisample.xml at its root (its headers only are read).
bool isMultisampleArchive(const std::filesystem::path& file);

// multisample.xml, or a folder holding one (a .multisample folder, or an unpacked archive).
instrument::Instrument loadMultisample(const std::filesystem::path& path);

// multisample.xml's text given in memory, read as if it were the content of
// `virtualFile` (which need not exist): sample paths are relative to its folder.
instrument::Instrument loadMultisampleText(std::string_view xml, const std::filesystem::path& virtualFile);

// Unpacks a .multisample zip under `into` through the guarded unpacking
// (instrument/Archive.h); false with `error` naming the archive, and `into` removed,
// when it is refused or holds no multisample.xml at its root.
bool unpackMultisample(const std::filesystem::path& archive, const std::filesystem::path& into, std::string& error);

}  // namespace spindle::multisample
