#pragma once
// Finding the files an instrument names (samples, SFZ #includes) as they are written:
// backslashes as separators, and a case-insensitive fallback per path component for
// libraries made on file systems that ignore case. Loader thread: touches the file system.
#include <filesystem>
#include <optional>
#include <string_view>

namespace spindle::instrument {

// `written` (backslashes accepted) made absolute against folder `base` and normalised.
std::filesystem::path joinWritten(const std::filesystem::path& base, std::string_view written);

// The existing path for `wanted` (absolute and normalised): `wanted` itself when it
// exists, else the path found by matching each missing component case-insensitively
// in its folder; nullopt when some component has no match.
std::optional<std::filesystem::path> findExisting(const std::filesystem::path& wanted);

}  // namespace spindle::instrument
