#pragma once
// Writes the .sfz text of the bundled electric piano (the layout in Spec.h).
#include <filesystem>

namespace spindle::instrument {

// Throws std::runtime_error when the file cannot be written.
void writeSfz(const std::filesystem::path& path);

}  // namespace spindle::instrument
