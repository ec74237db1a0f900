#pragma once
// A load that would sound like nothing is an error, never a silent success:
//   - an instrument that reads but yields no playable region (any format: an SFZ of
//     headers only, a kit whose instruments name no sample, a font whose zones all
//     point at unusable samples);
//   - a load none of whose samples loaded (missing, unreadable, or left out by the
//     memory budget), when its regions name any.
// loadInstrument() applies the first; the loader (session::Loader) applies the second
// after loading the samples. Either way the load gives
// no Program and its error goes where every load error goes: spindle-render's stderr
// and exit status 1, the log and OSC's failed load, the window's Problems panel.
// Loader threads.
#include <cstddef>
#include <string>

#include "instrument/Instrument.h"

namespace spindle::formats {

// When `in` was read (ok) but has no region: ok = false and one error naming the file.
void refuseEmpty(instrument::Instrument& in);

// The error of a load none of whose `referenced` sample files loaded (`loaded` == 0 <
// referenced); empty otherwise.
std::string noSampleLoaded(std::size_t referenced, std::size_t loaded);

}  // namespace spindle::formats
