// The folders the index reads: the standard places (XDG data folders, Hydrogen's and
// DecentSampler's), the user's own (kept in spindle.conf), and the cache file's place.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "library/LibraryIndex.h"

namespace spindle::library {

namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

fs::path home() {
  const std::string h = env("HOME");
  return h.empty() ? fs::path("/") : fs::path(h);
}

std::vector<fs::path> split(const std::string& list) {
  std::vector<fs::path> out;
  std::stringstream in(list);
  for (std::string part; std::getline(in, part, ':');)
    if (!part.empty()) out.emplace_back(part);
  return out;
}

// The XDG data folders, the user's first: $XDG_DATA_HOME then $XDG_DATA_DIRS.
std::vector<fs::path> dataFolders() {
  std::vector<fs::path> out;
  const std::string dataHome = env("XDG_DATA_HOME");
  out.push_back(dataHome.empty() ? home() / ".local" / "share" : fs::path(dataHome));
  const std::string dirs = env("XDG_DATA_DIRS");
  for (const fs::path& dir : split(dirs.empty() ? "/usr/local/share:/usr/share" : dirs)) out.push_back(dir);
  return out;
}

void addOnce(std::vector<fs::path>& roots, const fs::path& folder) {
  const fs::path normal = folder.lexically_normal();
  for (const fs::path& r : roots)
    if (r == normal) return;
  roots.push_back(normal);
}

}  // namespace

std::vector<fs::path> standardRoots() {
  std::vector<fs::path> roots;
  for (const fs::path& data : dataFolders())
    for (const char* sub : {"soundfonts", "sounds/sf2", "sfz", "hydrogen/data/drumkits"}) addOnce(roots, data / sub);
  addOnce(roots, "/usr/share/sounds/sf2");
  addOnce(roots, "/usr/share/soundfonts");
  addOnce(roots, home() / ".hydrogen" / "data" / "drumkits");
  // DecentSampler keeps its libraries in ~/Documents/Decent Sampler (the folder its
  // library manager installs into, on Linux as elsewhere).
  addOnce(roots, home() / "Documents" / "Decent Sampler");
  return roots;
}

fs::path defaultCacheFile() {
  const std::string cache = env("XDG_CACHE_HOME");
  return (cache.empty() ? home() / ".cache" : fs::path(cache)) / "spindle" / "library.json";
}

std::vector<fs::path> defaultRoots() {
  std::vector<fs::path> roots = standardRoots();
  for (const fs::path& folder : userFolders()) addOnce(roots, folder);
  return roots;
}

}  // namespace spindle::library
