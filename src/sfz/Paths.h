#pragma once
// File lookup for sample and #include paths (loader thread: touches the file system).
#include <filesystem>
#include <optional>
#include <string_view>

namespace spindle::sfz {

// `written` (backslashes accepted) made absolute against folder `base` and normalised.
std::filesystem::path joinWritten(const std::filesystem::path& base, std::string_view written);

// The existing path for `wanted` (absolute and normalised): `wanted` itself when it
// exists, else the path found by matching each missing component case-insensitively
// in its folder; nullopt when some component has no match.
std::optional<std::filesystem::path> findExisting(const std::filesystem::path& wanted);

}  // namespace spindle::sfz
