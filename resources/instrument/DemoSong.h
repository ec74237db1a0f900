#pragma once
// The demo that ships next to the instrument: ~21 s of a neo-soul progression with a
// melody on top, spanning C2..C7 and all three velocity layers, with sustain pedal changes.
#include <filesystem>

namespace spindle::instrument {

// Writes a format 1 Standard MIDI File: a tempo track and one note track (channel 1).
void writeDemoSong(const std::filesystem::path& path);

}  // namespace spindle::instrument
