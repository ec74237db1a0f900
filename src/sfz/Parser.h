#pragma once
// Loading an SFZ file into an Instrument (instrument/Instrument.h). Runs on the loader
// thread (it reads files and allocates); never throws for bad input: problems become
// Instrument::diagnostics.
//
// What is understood: headers <control> <global> <master> <group> <region> <curve>
// <effect> and <midi> (kept in Instrument::effects, not played; said once per file),
// label_cc, label_key, label_output, sw_label and the header labels (sfz/Labels.h); <sample> and
// unknown headers are reported once and their opcodes skipped;
// #define / $NAME expansion, #include (relative to the top-level file, nested, loops
// reported), // and /* */ comments,
// default_path, octave_offset, note_offset, sw_octave_offset and sw_note_offset (keyswitch
// opcodes only), hint_* (read silently), note names (c4 = 60), values with spaces,
// backslash paths and a case-insensitive fallback per path component.
#include <filesystem>
#include <string_view>

#include "instrument/Instrument.h"

namespace spindle::sfz {

// Parses the file; sample paths are relative to its folder.
instrument::Instrument loadFile(const std::filesystem::path& sfzFile);

// Parses text as if it were the content of virtualFile (which need not exist):
// #include and sample paths are relative to virtualFile's folder.
instrument::Instrument loadString(std::string_view text, const std::filesystem::path& virtualFile);

}  // namespace spindle::sfz
