#include "instrument/Paths.h"

#include <string>
#include <system_error>

#include "instrument/Text.h"

namespace spindle::instrument {

namespace fs = std::filesystem;

fs::path joinWritten(const fs::path& base, std::string_view written) {
  fs::path relative(text::forwardSlashes(written));
  fs::path joined = relative.is_absolute() ? relative : base / relative;
  std::error_code ec;
  fs::path absolute = fs::absolute(joined, ec);
  return (ec ? joined : absolute).lexically_normal();
}

namespace {

// The entry of `folder` whose name equals `name` ignoring case.
std::optional<fs::path> matchIgnoringCase(const fs::path& folder, const std::string& name) {
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) return std::nullopt;
  for (const fs::directory_entry& entry : it) {
    const std::string candidate = entry.path().filename().string();
    if (text::equalsIgnoringCase(candidate, name)) return entry.path();
  }
  return std::nullopt;
}

}  // namespace

std::optional<fs::path> findExisting(const fs::path& wanted) {
  std::error_code ec;
  if (fs::exists(wanted, ec)) return wanted;
  fs::path current = wanted.root_path();
  for (const fs::path& part : wanted.relative_path()) {
    if (part.empty()) continue;
    fs::path next = current / part;
    if (!fs::exists(next, ec)) {
      std::optional<fs::path> match = matchIgnoringCase(current, part.string());
      if (!match) return std::nullopt;
      next = *match;
    }
    current = std::move(next);
  }
  return current;
}

}  // namespace spindle::instrument
