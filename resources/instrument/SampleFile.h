#pragma once
// Writes one mono 48 kHz FLAC (24-bit PCM) file through libsndfile.
#include <filesystem>
#include <vector>

namespace spindle::instrument {

// Throws std::runtime_error when the file cannot be opened or fully written.
void writeFlac24(const std::filesystem::path& path, const std::vector<float>& frames);

}  // namespace spindle::instrument
