#pragma once
// What MIDI channel 10 plays when a SoundFont has no percussion preset for it. A part on
// channel 10 asks for bank 128 (Part::choosePreset); Program::presetFor then takes the
// exact preset, else program 0 of bank 128, else the file's first preset, whatever its
// bank. A drum-kit font whose one kit is bank 0 program 0 therefore plays on channel 10
// (FluidSynth stays silent there). That last step is said once per load, as a warning,
// because it makes a melodic font play its first preset as the drums. Loader threads.
#include <string>

#include "engine/parts/Program.h"

namespace spindle::formats {

// Empty when every bank-128 program of the prepared `program` plays a bank-128 preset (or
// it has no presets); otherwise one sentence naming the preset channel 10 falls back to
// and for how many of its 128 programs.
std::string percussionFallback(const engine::Program& program);

}  // namespace spindle::formats
