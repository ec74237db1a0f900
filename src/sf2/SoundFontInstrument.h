#pragma once
// A SoundFont 2 or 3 file as an instrument: every preset's regions, tagged with the
// preset (Region::preset) so a part plays the one its bank select and program change
// choose (channel 10: bank 128, the General MIDI drum kits). Samples stay in the file:
// each is a slice of it (stream/SampleSlice.h: raw PCM for SF2, Ogg Vorbis for SF3),
// preloaded and streamed like any sample file. Loader thread.
//
// A file the reader refuses gives ok = false and its error; a sample whose range lies
// outside the sample data, or a ROM sample, is listed as missing, and its zones never
// sound; what the regions cannot play is reported once each as a warning.
#include <filesystem>

#include "instrument/Instrument.h"
#include "sf2/SoundFont.h"

namespace spindle::sf2 {

instrument::Instrument loadSoundFont(const std::filesystem::path& file);
// The same for a font already read (its path names the file the slices read).
instrument::Instrument buildInstrument(const SoundFont& font);

}  // namespace spindle::sf2
