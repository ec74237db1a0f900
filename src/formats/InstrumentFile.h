#pragma once
// Every instrument format Spindle loads, recognised by content, not by extension:
// SFZ text, DecentSampler XML (<DecentSampler>, .dsbundle folders), Hydrogen kits
// (<drumkit_info>, kit folders, .h2drumkit archives), SoundFont 2/3 (RIFF 'sfbk'),
// multisamples (<multisample>, a zip holding multisample.xml, a folder holding one or
// named .multisample). Any other file is refused with one error that names it. Loader
// thread.
//
// Each format's loader builds the same Instrument (instrument/Instrument.h), so
// everything after this point (sample pool, Program, engine) is the same for all of them.
#include <filesystem>
#include <string>
#include <string_view>

#include "instrument/Instrument.h"

namespace spindle::formats {

enum class Format {
  Sfz,
  DecentSampler,
  HydrogenKit,
  HydrogenArchive,
  SoundFont,
  Multisample,
  MultisampleArchive,
  Unknown
};

// What `path` holds, from its first bytes (or, for a folder, what it contains).
Format detect(const std::filesystem::path& path);
const char* formatName(Format f);

// Loads any supported format. An unsupported or unreadable file, or one with no
// playable region (formats/SilentLoad.h), gives an Instrument with ok = false and an
// error diagnostic naming the file. The convolution effects' impulse responses are read
// here too (formats/ImpulseResponses.h).
instrument::Instrument loadInstrument(const std::filesystem::path& path);
// SFZ text given in memory, read as if it were the content of virtualFile (which need
// not exist): #include and sample paths are relative to virtualFile's folder.
instrument::Instrument loadSfzText(std::string_view text, const std::filesystem::path& virtualFile);

// Where archives are unpacked, one folder per kind ("drumkits" for .h2drumkit,
// "multisamples" for .multisample): $XDG_CACHE_HOME/spindle/KIND, else
// ~/.cache/spindle/KIND, else spindle-KIND in the system temp folder.
std::filesystem::path archiveCache(std::string_view kind);

}  // namespace spindle::formats
