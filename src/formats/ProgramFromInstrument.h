#pragma once
// The Program an instrument gives, for the one loader (session::Loader, which every
// front door uses): everything but the samples, which it takes from its pool. Loader
// threads.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/parts/Program.h"
#include "instrument/Instrument.h"

namespace spindle::stream {
class SamplePool;
}

namespace spindle::formats {

// Name, keyswitch default, controller defaults and labels, key labels, SoundFont
// presets and <curve>s (and the curves a SoundFont or DecentSampler loader generated).
std::unique_ptr<engine::Program> programFor(const instrument::Instrument& instrument);

// Once the samples and regions are in: resamples the convolution effects' responses to
// the pool's outputRate, prepares the program, has `pool` make the float
// tables the regions that play their file as an oscillator read (SampleData::table), and
// blends its loop crossfade tails (core/LoopTail.h). A tail that cannot be read is a
// warning in `warnings` and its region loops without the crossfade; so is a SoundFont's
// percussion fallback (formats/PresetFallback.h), once. Returns the tails' bytes.
uint64_t finishProgram(engine::Program& program, stream::SamplePool& pool, std::vector<std::string>& warnings);

}  // namespace spindle::formats
