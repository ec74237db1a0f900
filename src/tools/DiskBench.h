#pragma once
// The disk-streaming benchmark Benno Senoner described ("lock-free data structures",
// linux-audio-dev, 2004): several large files, random seeks between them, then
// round-robin streaming reads of one size after another, each pass
// from a cold cache (fsync + posix_fadvise DONTNEED), the way a disk sampler's disk thread
// reads for many voices at once.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace spindle::tools {

struct DiskBenchOptions {
  std::filesystem::path dir;  // a private folder is made (and removed) inside it
  int files = 4;
  uint64_t fileBytes = 750ull << 20;
  std::vector<uint64_t> readSizes{64u << 10, 128u << 10, 256u << 10, 512u << 10, 1u << 20, 2u << 20};
  double secondsPerSize = 10;  // a pass also ends once every file was read through once
  int seeks = 500;             // random 2-byte reads in the seek test (bounded by secondsPerSize too)
  uint32_t seed = 2004;
};

struct ReadSizeResult {
  uint64_t readSize = 0;
  uint64_t bytes = 0, reads = 0;
  double seconds = 0;
  double mibPerSecond = 0;
  double meanReadMs = 0, worstReadMs = 0;
};

struct DiskBenchResult {
  std::string error;  // non-empty: the benchmark could not run
  std::filesystem::path workDir;
  int files = 0;
  uint64_t fileBytes = 0;
  double writeMiBPerSecond = 0;
  double seeksPerSecond = 0, meanSeekMs = 0;
  bool cacheDropped = true;  // posix_fadvise(DONTNEED) succeeded on every file
  std::vector<ReadSizeResult> sizes;
};

// `progress` gets one line per phase ("writing 4 files of 64 MiB", "reading 256 KiB").
DiskBenchResult runDiskBench(const DiskBenchOptions& options,
                             const std::function<void(const std::string&)>& progress = {});

}  // namespace spindle::tools
