#pragma once
// spindle-doctor --apply: the runtime changes of a profile (never boot options or files).
// Needs root; every step is reported, whether it worked or not.
#include <string>
#include <vector>

#include "tools/Doctor.h"

namespace spindle::tools {

// Holds /dev/cpu_dma_latency at 0 us for as long as the object lives: the kernel keeps every
// CPU out of idle states slower to leave than that until the file is closed.
class CpuDmaLatencyHold {
 public:
  CpuDmaLatencyHold() = default;
  ~CpuDmaLatencyHold();
  CpuDmaLatencyHold(const CpuDmaLatencyHold&) = delete;
  CpuDmaLatencyHold& operator=(const CpuDmaLatencyHold&) = delete;

  // Opens `path` (the device, or a file in a test tree) and writes the 32-bit value 0.
  bool acquire(const std::string& path, std::string& error);
  bool held() const { return fd_ >= 0; }
  void release();

 private:
  int fd_ = -1;
};

struct ApplyResult {
  std::vector<std::string> done;    // "cpu0: governor schedutil -> performance"
  std::vector<std::string> failed;  // "cpu1: cannot write .../scaling_governor: Permission denied"
};

// Sets the profile's governor on every CPU with cpufreq; for the lowlatency profile, also
// acquires `hold`. The caller checks for root first.
ApplyResult applyRuntime(const SystemRoot& system, Profile profile, CpuDmaLatencyHold& hold);

}  // namespace spindle::tools
