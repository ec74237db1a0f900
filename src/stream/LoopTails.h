#pragma once
// Building a region's loop_crossfade tail and loop_sustain exit frames (core/LoopTail.h)
// for any sample.
//
// Thread: the loader thread, after the region's sample is in the pool; never the audio
// thread. The frames to blend come from the sample's RAM when they are there (the
// preload, or the whole file) and otherwise from the file itself, read here once, so
// the audio thread never needs frames before loop_start that no stream holds.
#include <string>

#include "core/LoopTail.h"

namespace spindle::stream {

// The blended tail, or one with frames == 0 when there is none, and the exit frames
// (exitFrames == 0 when there are none). When the file cannot be read, `error` says why
// and the region loops without the crossfade, or leaves its loop on the stream alone.
LoopTail buildLoopTail(const Region& region, const SampleData& sample, std::string& error);

}  // namespace spindle::stream
