#pragma once
// What an instrument's regions ask of each sample's preload (stream::PreloadNeed): how
// fast they may play it and how far into it a note may start, so that the preload
// covers the disk's start-up at the highest pitch and offset a note can have.
//
// Thread: the loader thread.
#include <vector>

#include "core/Region.h"
#include "instrument/Instrument.h"
#include "stream/SamplePool.h"

namespace spindle::formats {

// The highest pitch a voice of `r` may reach above its sample's own, in cents: the key
// range against the key center, transpose and tune, bend (up or down, whichever raises
// it), velocity tracking and the pitch envelope, LFO, random pitch and loop_tune depths.
// Controller-driven v2 pitch modulation is not counted.
double highestCents(const Region& r) noexcept;

// One PreloadNeed per entry of instrument.samples: the most any region playing it asks.
std::vector<stream::PreloadNeed> preloadNeeds(const instrument::Instrument& instrument);

}  // namespace spindle::formats
