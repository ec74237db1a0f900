// CPU and memory checks: cpufreq governor, /dev/cpu_dma_latency, swappiness.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <sstream>

#include "tools/Doctor.h"

namespace spindle::tools {
namespace {

bool isCpuDir(const std::string& name) {
  return name.size() > 3 && name.rfind("cpu", 0) == 0 &&
         std::all_of(name.begin() + 3, name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// governor -> how many CPUs use it
std::map<std::string, int> governors(const SystemRoot& system) {
  std::map<std::string, int> found;
  for (const std::string& name : system.list("/sys/devices/system/cpu")) {
    if (!isCpuDir(name)) continue;
    if (std::optional<std::string> g = system.readLine("/sys/devices/system/cpu/" + name + "/cpufreq/scaling_governor")) {
      ++found[trim(*g)];
    }
  }
  return found;
}

std::vector<std::string> wantedGovernors(Profile profile) {
  switch (profile) {
    case Profile::LowLatency: return {"performance"};
    case Profile::Throughput: return {"performance", "schedutil"};
    case Profile::PowerSave: return {"powersave", "schedutil", "conservative"};
  }
  return {};
}

}  // namespace

void checkGovernor(const SystemRoot& system, Profile profile, std::vector<Check>& out) {
  Check check{"cpu.governor", "CPU frequency governor", Status::Pass, "", ""};
  const std::map<std::string, int> found = governors(system);
  if (found.empty()) {
    check.detail = "No cpufreq in /sys/devices/system/cpu/cpu*/cpufreq: this kernel does not scale the "
                   "CPU clock (a virtual machine, or a fixed-frequency CPU). Nothing to tune here.";
    out.push_back(check);
    return;
  }
  const std::vector<std::string> wanted = wantedGovernors(profile);
  std::string list;
  bool allWanted = true;
  for (const auto& [governor, cpus] : found) {
    list += (list.empty() ? "" : ", ") + governor + " on " + std::to_string(cpus) + " CPU(s)";
    allWanted = allWanted && std::find(wanted.begin(), wanted.end(), governor) != wanted.end();
  }
  check.detail = "Governor: " + list + ". ";
  if (allWanted) {
    check.detail += "Fits the " + std::string(profileName(profile)) + " profile.";
  } else {
    check.status = Status::Warn;
    check.detail += profile == Profile::LowLatency
                        ? "A CPU that clocks down between audio periods runs the next one slower and "
                          "wakes later; a Pi 3 gained 10% by a higher fixed clock (\"RaspBerry PI - The Audio "
                          "Engine - Part 7 - Realtime Kernel\", 2018)."
                        : "Not what the " + std::string(profileName(profile)) + " profile uses.";
    check.fix = "As root: cpupower frequency-set -g " + wanted.front() + " (or spindle-doctor --apply --profile " +
                profileName(profile) + "); make it permanent with the cpufrequtils or tuned service.";
  }
  out.push_back(check);
}

void checkCpuDmaLatency(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"cpu.dma_latency", "/dev/cpu_dma_latency (C-state hold)", Status::Pass, "", ""};
  if (!system.exists("/dev/cpu_dma_latency")) {
    check.status = Status::Warn;
    check.detail = "/dev/cpu_dma_latency is missing: nothing can keep idle CPUs out of deep C-states, "
                   "whose exit can add hundreds of microseconds to a wakeup.";
    check.fix = "Use a kernel with CONFIG_CPU_IDLE and PM QoS (every distribution kernel), or disable "
                "deep C-states in firmware, or boot with processor.max_cstate=1.";
  } else if (system.writable("/dev/cpu_dma_latency")) {
    check.detail = "Writable: a process holding it at 0 us (spindle-doctor --apply --hold) keeps the CPUs "
                   "out of deep C-states until it closes the file.";
  } else {
    check.status = Status::Warn;
    check.detail = "Present but not writable by " + system.user.name + ": Spindle cannot hold the CPUs out "
                   "of deep C-states while it plays.";
    check.fix = "Add a udev rule, e.g. /etc/udev/rules.d/90-cpu-dma-latency.rules: "
                "KERNEL==\"cpu_dma_latency\", GROUP=\"audio\", MODE=\"0660\"; then udevadm trigger.";
  }
  out.push_back(check);
}

void checkSwappiness(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"vm.swappiness", "Swappiness", Status::Pass, "", ""};
  const std::optional<std::string> text = system.readLine("/proc/sys/vm/swappiness");
  if (!text) {
    check.status = Status::Warn;
    check.detail = "/proc/sys/vm/swappiness is not readable.";
    check.fix = "Check that /proc is mounted; then rerun.";
    out.push_back(check);
    return;
  }
  const int swappiness = std::atoi(text->c_str());
  const std::string swaps = system.readText("/proc/swaps").value_or("");
  const bool swapActive = std::count(swaps.begin(), swaps.end(), '\n') > 1;
  check.detail = "vm.swappiness=" + std::to_string(swappiness) + ", swap " + (swapActive ? "active" : "not active") + ". ";
  if (!swapActive) {
    check.detail += "Without swap nothing of Spindle's is paged out to disk.";
  } else if (swappiness <= 10) {
    check.detail += "Low enough: the kernel prefers dropping page cache to swapping programs out.";
  } else {
    check.status = Status::Warn;
    check.detail += "Pages of a running sampler (preloaded sample heads not locked in RAM) may be swapped "
                    "out and take a disk read to come back, mid-note.";
    check.fix = "echo 'vm.swappiness = 10' > /etc/sysctl.d/90-spindle.conf && sysctl --system";
  }
  out.push_back(check);
}

}  // namespace spindle::tools
