#include "library/LibraryIndex.h"

#include <cstdlib>

namespace spindle::library {

struct Index::State {
  Options options;
};

std::vector<std::filesystem::path> standardRoots() { return {}; }

std::filesystem::path defaultCacheFile() {
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache != '\0')
    return std::filesystem::path(cache) / "spindle" / "library.json";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : "/") / ".cache" / "spindle" / "library.json";
}

Index::Index(Options options) : state_(std::make_unique<State>()) { state_->options = std::move(options); }
Index::~Index() = default;
void Index::start() {}
void Index::rescan() {}
void Index::cancel() {}
std::vector<Entry> Index::entries() const { return {}; }
std::vector<Entry> Index::search(const std::string&) const { return {}; }
std::uint64_t Index::serial() const { return 0; }
Progress Index::progress() const { return {}; }
void Index::addRoot(const std::filesystem::path& folder) { state_->options.roots.push_back(folder); }

}  // namespace spindle::library
