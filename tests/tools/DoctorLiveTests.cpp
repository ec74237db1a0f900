// The doctor on this machine, cross-checked against what uname -v, /proc/config.gz and /sys
// say when read directly (on the CI machines: PREEMPT_DYNAMIC, CONFIG_HZ=250, no cpufreq).
#include <sys/resource.h>

#include <cstdio>
#include <filesystem>

#include "CheckExpect.h"
#include "ToolTestSupport.h"

namespace doctor_live_tests {

using spindle::tools::Profile;
using spindle::tools::Status;
using spindle::tools::SystemRoot;

namespace {

std::string shellOutput(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[512];
    while (fgets(buffer, sizeof buffer, pipe)) out += buffer;
    pclose(pipe);
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

const spindle::tools::Check& check(const spindle::tools::DoctorReport& r, const std::string& id) {
  const spindle::tools::Check* c = r.find(id);
  REQUIRE(c != nullptr);
  return *c;
}

}  // namespace

TEST_CASE("doctor on this machine: preemption and CONFIG_HZ agree with uname -v and the config") {
  const spindle::tools::DoctorReport r = runDoctor(SystemRoot::live(), Profile::LowLatency);
  REQUIRE(r.checks.size() == 12);
  const std::string version = shellOutput("uname -v");
  const std::string& preempt = check(r, "kernel.preempt").detail;
  INFO("uname -v: " << version << "\npreempt: " << preempt);
  const bool dynamic = version.find("PREEMPT_DYNAMIC") != std::string::npos;
  const bool rt = version.find("PREEMPT_RT") != std::string::npos;
  CHECK((preempt.find("PREEMPT_DYNAMIC kernel") != std::string::npos) == (dynamic && !rt));
  if (rt) CHECK(preempt.find("model rt") != std::string::npos);

  std::string hzLine;
  if (std::filesystem::exists("/proc/config.gz")) {
    hzLine = shellOutput("gzip -dc /proc/config.gz | grep '^CONFIG_HZ='");
  } else {
    hzLine = shellOutput("grep '^CONFIG_HZ=' /boot/config-$(uname -r) 2>/dev/null");
  }
  const std::string& hz = check(r, "kernel.hz").detail;
  INFO("config: " << hzLine << "\nhz check: " << hz);
  if (hzLine.empty()) {
    CHECK(hz.find("CONFIG_HZ unknown") == 0);
  } else {
    CHECK(hz.find(hzLine + " (from ") == 0);
    CHECK((check(r, "kernel.hz").status == Status::Pass) == (std::atoi(hzLine.c_str() + 10) >= 1000));
  }
}

TEST_CASE("doctor on this machine: cpufreq, swappiness and limits agree with /sys, /proc and getrlimit") {
  const spindle::tools::DoctorReport r = runDoctor(SystemRoot::live(), Profile::LowLatency);
  const bool cpufreq = std::filesystem::exists("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  const auto& governor = check(r, "cpu.governor");
  CHECK((governor.detail.find("No cpufreq") == 0) == !cpufreq);
  if (cpufreq) {
    const std::string g = shellOutput("cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    CHECK(governor.detail.find(g + " on ") != std::string::npos);
  }
  const std::string swappiness = shellOutput("cat /proc/sys/vm/swappiness");
  CHECK(check(r, "vm.swappiness").detail.find("vm.swappiness=" + swappiness + ",") == 0);
  rlimit limit{};
  getrlimit(RLIMIT_RTPRIO, &limit);
  const std::string rtprio = limit.rlim_cur == RLIM_INFINITY ? "unlimited" : std::to_string(limit.rlim_cur);
  CHECK(check(r, "limits.rtprio").detail.find(": " + rtprio + " (hard ") != std::string::npos);
  if (geteuid() == 0) {
    CHECK(check(r, "limits.rtprio").status == Status::Pass);
    CHECK(check(r, "limits.memlock").status == Status::Pass);
  }
  const bool dmaDevice = std::filesystem::exists("/dev/cpu_dma_latency");
  CHECK((check(r, "cpu.dma_latency").detail.find("is missing") != std::string::npos) == !dmaDevice);
}

}  // namespace doctor_live_tests
