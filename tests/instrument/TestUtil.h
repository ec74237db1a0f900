#pragma once
// Helpers for the tests of every loader: a scratch folder under the system temp directory, and
// lookups into an Instrument's diagnostics.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "instrument/Instrument.h"

namespace spindle::test {

// A fresh folder under temp_directory_path(), removed with everything in it.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    std::random_device seed;
    path_ = std::filesystem::temp_directory_path() /
            ("spindle-sfz-" + std::to_string(seed()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  std::filesystem::path write(const std::string& relative, std::string_view content) const {
    const std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
    return file;
  }

 private:
  std::filesystem::path path_;
};

// Number of diagnostics whose message contains `needle`.
inline int countDiagnostics(const instrument::Instrument& inst, std::string_view needle) {
  return static_cast<int>(std::count_if(inst.diagnostics.begin(), inst.diagnostics.end(),
                                        [&](const instrument::Diagnostic& d) { return d.message.find(needle) != std::string::npos; }));
}

// The first diagnostic whose message contains `needle`, or nullptr.
inline const instrument::Diagnostic* findDiagnostic(const instrument::Instrument& inst, std::string_view needle) {
  for (const instrument::Diagnostic& d : inst.diagnostics)
    if (d.message.find(needle) != std::string::npos) return &d;
  return nullptr;
}

// The regions that hold `key` and `velocity`, as (sample file name, region): which
// sample a note plays, for the loaders of the other formats.
inline std::vector<std::pair<std::string, const Region*>> regionsPlaying(const instrument::Instrument& in, int key,
                                                                          int velocity) {
  std::vector<std::pair<std::string, const Region*>> out;
  for (const Region& r : in.regions)
    if (key >= r.lokey && key <= r.hikey && velocity >= r.lovel && velocity <= r.hivel)
      out.emplace_back(std::filesystem::path(in.samples[static_cast<size_t>(r.sampleIndex)]).filename().string(), &r);
  return out;
}

}  // namespace spindle::test
