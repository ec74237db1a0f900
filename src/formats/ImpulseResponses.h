#pragma once
// The convolution effects' impulse responses: read after an instrument is parsed, and
// resampled to the engine's rate when its Program is finished. Loader threads.
#include "core/BusEffects.h"
#include "instrument/Instrument.h"

namespace spindle::formats {

// Reads the response of every convolution effect in `instrument.buses`. One that cannot
// be read is an error naming the instrument file, the effect's line and the response's
// path with the reason; that effect is left out and everything else plays.
void readImpulseResponses(instrument::Instrument& instrument);

// Every response in `layout` at `rate` (the engine's: stream::PoolOptions::outputRate).
void resampleImpulseResponses(BusLayout& layout, double rate);

}  // namespace spindle::formats
