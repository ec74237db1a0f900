#include "tools/Profiles.h"

#include <algorithm>
#include <cctype>

namespace spindle::tools {
namespace {

const char* const kHzNote =
    "CONFIG_HZ, CONFIG_NO_HZ_FULL and CONFIG_RCU_LAZY are chosen when the kernel is built; Ubuntu "
    "24.04's generic kernel has HZ=1000 and both options, so the boot options above work there.";

ProfileChanges lowLatency(int cpuCount) {
  ProfileChanges c;
  c.kernelCommandLine = {"preempt=full", "threadirqs"};
  if (cpuCount >= 4) {
    const std::string last = std::to_string(cpuCount - 1);
    c.kernelCommandLine.push_back("nohz_full=" + last);
    c.kernelCommandLine.push_back("rcu_nocbs=" + last);
    c.kernelCommandLine.push_back("irqaffinity=0-" + std::to_string(cpuCount - 2));
    c.notes.push_back("nohz_full/rcu_nocbs/irqaffinity keep CPU " + last + " for audio: run JACK there (taskset -c " +
                      last + ").");
  } else {
    c.notes.push_back("With " + std::to_string(cpuCount) + " CPU(s), isolating one (nohz_full, rcu_nocbs) would "
                      "leave too little for everything else, so it is not suggested.");
  }
  c.sysctl = {"vm.swappiness = 10"};
  c.limits = {"@audio - rtprio 95", "@audio - memlock unlimited"};
  c.runtime = {"cpufreq governor -> performance on every CPU",
               "/dev/cpu_dma_latency held at 0 us (with --hold, until Ctrl-C: start it before playing)"};
  return c;
}

}  // namespace

ProfileChanges profileChanges(Profile profile, int cpuCount) {
  ProfileChanges c;
  switch (profile) {
    case Profile::LowLatency:
      c = lowLatency(cpuCount);
      break;
    case Profile::Throughput:
      c.kernelCommandLine = {"preempt=none"};
      c.sysctl = {"vm.swappiness = 60"};
      c.runtime = {"cpufreq governor -> performance on every CPU"};
      c.notes.push_back("No nohz_full: it halved large-write IOPS in Ubuntu's tests (\"Enable low latency "
                        "features in the generic Ubuntu kernel for 24.04\", Ubuntu kernel team, 2023).");
      break;
    case Profile::PowerSave:
      c.kernelCommandLine = {"preempt=voluntary", "rcu_nocbs=all", "rcutree.enable_rcu_lazy=1"};
      c.runtime = {"cpufreq governor -> powersave (schedutil where powersave is missing)"};
      c.notes.push_back("Offloaded lazy RCU saved about 5% power under load in Ubuntu's tests (\"Enable low "
                        "latency features in the generic Ubuntu kernel for 24.04\", Ubuntu kernel team, 2023).");
      break;
  }
  c.notes.push_back(kHzNote);
  return c;
}

int countCpus(const SystemRoot& system) {
  int count = 0;
  for (const std::string& name : system.list("/sys/devices/system/cpu")) {
    const bool cpu = name.size() > 3 && name.rfind("cpu", 0) == 0 &&
                     std::all_of(name.begin() + 3, name.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
    count += cpu ? 1 : 0;
  }
  return count;
}

}  // namespace spindle::tools
