#include "app/BundledInstrument.h"

#include <cstdlib>
#include <system_error>

namespace spindle::app {

namespace {
constexpr const char* kFile = "spindle-ep.sfz";
}  // namespace

std::vector<std::filesystem::path> bundledInstrumentCandidates() {
  std::vector<std::filesystem::path> paths;
  if (const char* env = std::getenv("SPINDLE_DATA_DIR"); env && *env) {
    paths.push_back(std::filesystem::path(env) / kFile);
    paths.push_back(std::filesystem::path(env) / "instrument" / kFile);
  }
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) paths.push_back(exe.parent_path() / ".." / "share" / "spindle" / "instrument" / kFile);
#ifdef SPINDLE_INSTRUMENT_BUILD_DIR
  paths.push_back(std::filesystem::path(SPINDLE_INSTRUMENT_BUILD_DIR) / kFile);
#endif
  paths.push_back(std::filesystem::path("/usr/share/spindle/instrument") / kFile);
  return paths;
}

std::optional<std::filesystem::path> findBundledInstrument() {
  for (const std::filesystem::path& path : bundledInstrumentCandidates()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return path.lexically_normal();
  }
  return std::nullopt;
}

std::string bundledInstrumentSearchList() {
  std::string list;
  for (const std::filesystem::path& path : bundledInstrumentCandidates())
    list += (list.empty() ? "" : ", ") + path.lexically_normal().string();
  return list;
}

}  // namespace spindle::app
