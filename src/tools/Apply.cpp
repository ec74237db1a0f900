#include "tools/Apply.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "tools/Profiles.h"

namespace spindle::tools {

CpuDmaLatencyHold::~CpuDmaLatencyHold() { release(); }

bool CpuDmaLatencyHold::acquire(const std::string& path, std::string& error) {
  release();
  fd_ = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  const int32_t microseconds = 0;
  if (write(fd_, &microseconds, sizeof microseconds) != static_cast<ssize_t>(sizeof microseconds)) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    release();
    return false;
  }
  return true;
}

void CpuDmaLatencyHold::release() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

namespace {

// The first of the profile's governors this CPU offers.
std::string pickGovernor(const std::string& available, Profile profile) {
  const std::vector<std::string> offered = splitWords(available);
  const std::vector<std::string> wanted = profile == Profile::PowerSave
                                              ? std::vector<std::string>{"powersave", "schedutil"}
                                              : std::vector<std::string>{"performance"};
  for (const std::string& g : wanted) {
    for (const std::string& o : offered) {
      if (o == g) return g;
    }
  }
  return {};
}

void setGovernor(const SystemRoot& system, const std::string& cpu, Profile profile, ApplyResult& result) {
  const std::string dir = "/sys/devices/system/cpu/" + cpu + "/cpufreq/";
  const std::optional<std::string> current = system.readLine(dir + "scaling_governor");
  if (!current) return;
  const std::string governor = pickGovernor(system.readLine(dir + "scaling_available_governors").value_or(""), profile);
  if (governor.empty()) {
    result.failed.push_back(cpu + ": none of the profile's governors is offered");
  } else if (trim(*current) == governor) {
    result.done.push_back(cpu + ": governor already " + governor);
  } else {
    std::ofstream file(system.path(dir + "scaling_governor"));
    file << governor << '\n';
    file.close();
    if (file) {
      result.done.push_back(cpu + ": governor " + trim(*current) + " -> " + governor);
    } else {
      result.failed.push_back(cpu + ": cannot write " + dir + "scaling_governor");
    }
  }
}

}  // namespace

ApplyResult applyRuntime(const SystemRoot& system, Profile profile, CpuDmaLatencyHold& hold) {
  ApplyResult result;
  const size_t before = result.done.size() + result.failed.size();
  for (const std::string& name : system.list("/sys/devices/system/cpu")) {
    if (name.size() > 3 && name.rfind("cpu", 0) == 0 && std::isdigit(static_cast<unsigned char>(name[3]))) {
      setGovernor(system, name, profile, result);
    }
  }
  if (result.done.size() + result.failed.size() == before) {
    result.done.push_back("governor: no cpufreq on this machine, nothing to change");
  }
  if (profile == Profile::LowLatency) {
    std::string error;
    if (hold.acquire(system.path("/dev/cpu_dma_latency").string(), error)) {
      result.done.push_back("/dev/cpu_dma_latency: holding 0 us");
    } else {
      result.failed.push_back("/dev/cpu_dma_latency: " + error);
    }
  }
  return result;
}

}  // namespace spindle::tools
