#pragma once
// The corpus of damaged and odd files (make_corpus.py), written once per test run into a
// scratch folder that is also the archive cache ($XDG_CACHE_HOME = ROOT/cache), and its
// manifest: one Case per file with the outcome expected for its damage.
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "instrument/TestUtil.h"

namespace spindle::test {

struct Case {
  std::string kind;          // instrument, audio or midi
  std::filesystem::path file;
  std::string expect;        // "regions=N[,warn]", "error", "frames=N", "events=N"
  std::string names;         // text the warning or error must hold ("" for none)

  bool expectsError() const { return expect == "error"; }
  bool expectsWarning() const { return expect.find(",warn") != std::string::npos; }
  // N of "what=N[,...]".
  long long count() const { return std::stoll(expect.substr(expect.find('=') + 1)); }
};

class Corpus {
 public:
  Corpus() {
    ::setenv("XDG_CACHE_HOME", cache().c_str(), 1);
    const std::string command =
        "python3 '" SPINDLE_SOURCE_DIR "/tests/corpus/make_corpus.py' '" + root().string() + "'";
    generated_ = std::system(command.c_str()) == 0;
    std::ifstream manifest(root() / "manifest.tsv");
    for (std::string line; std::getline(manifest, line);) {
      std::istringstream fields(line);
      Case c;
      std::string rel;
      std::getline(fields, c.kind, '\t');
      std::getline(fields, rel, '\t');
      std::getline(fields, c.expect, '\t');
      std::getline(fields, c.names, '\t');
      c.file = root() / rel;
      if (c.names == "-") c.names.clear();
      cases_.push_back(c);
    }
  }

  bool generated() const { return generated_; }
  std::filesystem::path root() const { return dir_.path(); }
  std::filesystem::path cache() const { return dir_.path() / "cache"; }
  std::vector<Case> cases(const std::string& kind) const {
    std::vector<Case> out;
    for (const Case& c : cases_)
      if (c.kind == kind) out.push_back(c);
    return out;
  }

  // Every path under the root but the cache folder (links not followed).
  std::set<std::string> treeOutsideCache() const { return tree(root(), cache()); }
  // Every path under the cache folder.
  std::set<std::string> cacheTree() const { return tree(cache(), {}); }

 private:
  static std::set<std::string> tree(const std::filesystem::path& top, const std::filesystem::path& skip) {
    std::set<std::string> out;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(top, ec); it != decltype(it)(); ++it) {
      if (it->path() == skip) {
        it.disable_recursion_pending();
        continue;
      }
      out.insert(std::filesystem::relative(it->path(), top).string());
    }
    return out;
  }

  TempDir dir_;
  bool generated_ = false;
  std::vector<Case> cases_;
};

// The process's peak resident memory so far, in MiB.
inline long peakResidentMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

}  // namespace spindle::test
