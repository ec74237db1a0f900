#pragma once
// The load Benno Senoner put on his machine while measuring ("New scheduling latencies
// during audio playing + heavy disk I/O on various kernels", 1999): writing a large
// file, copying it, reading both back, reading /proc like `top -d 0.01`, plus CPU load.
// Every generator stops when asked or at its own bound; files live in a private temporary
// folder that is removed afterwards, and the disk writer writes at most diskLimitBytes.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace spindle::tools {

struct StressOptions {
  bool disk = false, cpu = false, proc = false;
  std::filesystem::path tempParent;          // empty: the system temporary folder
  uint64_t diskLimitBytes = 256ull << 20;    // total bytes written (file + copy), all cycles
  uint64_t fileBytes = 32ull << 20;          // size of each written file
};

// Parses "disk,cpu,proc" (any subset); false on an unknown word.
bool parseStressList(const std::string& list, StressOptions& out, std::string& error);

struct StressCounters {
  std::atomic<uint64_t> bytesWritten{0}, bytesCopied{0}, bytesRead{0};
  std::atomic<uint64_t> procFilesRead{0}, cpuLoops{0};
};

class StressLoad {
 public:
  explicit StressLoad(StressOptions options);
  ~StressLoad();  // stops and cleans up
  StressLoad(const StressLoad&) = delete;
  StressLoad& operator=(const StressLoad&) = delete;

  void start();
  void stop();
  // "disk: wrote 256 MiB, copied 128 MiB, read 256 MiB in /tmp/spindle-stress-XXXX (removed)", ...
  std::vector<std::string> summary() const;

 private:
  void diskLoop();
  void procLoop();
  void cpuLoop();

  StressOptions options_;
  std::filesystem::path dir_;
  std::string diskError_;
  std::atomic<bool> stop_{false};
  StressCounters counters_;
  std::vector<std::thread> threads_;
};

}  // namespace spindle::tools
