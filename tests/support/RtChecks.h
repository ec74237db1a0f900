#pragma once
// The assertion every audio-thread safety test ends with: nothing allocated, freed or
// locked on the audio thread, where this build counts (RtGuard.h); elsewhere it says how
// the build checks instead (RealtimeSanitizer, or nothing under ASan/TSan), counted as a
// skip (Skip.h).
#include "RtGuard.h"
#include "Skip.h"
#include "catch.h"

namespace spindle::test {

inline void checkAudioThreadClean(const RtCounts& counts) {
  if (!rtGuardCounting()) SPINDLE_SKIP_CASE(rtGuardMode());
  CHECK(counts.allocs == 0);
  CHECK(counts.frees == 0);
  CHECK(counts.locks == 0);
}

}  // namespace spindle::test
