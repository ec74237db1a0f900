#pragma once
// The bundled default instrument ("Spindle EP", synthesised at build time by
// resources/instrument): what `spindle` loads when no --instrument is given.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace spindle::app {

// Where it is looked for, in order: $SPINDLE_DATA_DIR (the folder itself or its
// instrument/ subfolder), ../share/spindle/instrument next to the executable (an
// installed tree), the build tree this executable came from, /usr/share/spindle/instrument.
std::vector<std::filesystem::path> bundledInstrumentCandidates();

// The first candidate that exists; nullopt when none does.
std::optional<std::filesystem::path> findBundledInstrument();

// One line naming every place looked in, for the error when none holds it.
std::string bundledInstrumentSearchList();

}  // namespace spindle::app
