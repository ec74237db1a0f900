// Kernel checks: preemption model, CONFIG_HZ, threaded IRQs, CPU isolation.
#include <cstdlib>
#include <string>

#include "tools/Doctor.h"
#include "tools/KernelInfo.h"

namespace spindle::tools {
namespace {

const char* const kGrubHow =
    " (GRUB: append it to GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, run update-grub, reboot)";

Check preemptVerdict(const PreemptInfo& info, Profile profile) {
  Check check{"kernel.preempt", "Kernel preemption model", Status::Pass, "", ""};
  const std::string model = preemptModelName(info.model);
  check.detail = std::string(info.dynamic ? "PREEMPT_DYNAMIC kernel, " : "") + "model " + model +
                 (info.lowlatencyFlavour ? " (lowlatency build)" : "") + ", from " + info.source + ". ";
  const bool realtimeReady = info.model == PreemptModel::Rt || info.model == PreemptModel::Full ||
                             info.model == PreemptModel::Lazy;
  if (profile != Profile::LowLatency && info.model != PreemptModel::Unknown) {
    check.detail += "Any model serves the " + std::string(profileName(profile)) +
                    " profile; audio at 2-5 ms wants full or rt.";
    return check;
  }
  if (realtimeReady) {
    check.detail += "A woken SCHED_FIFO thread preempts the kernel at once: fit for 2-5 ms periods.";
    return check;
  }
  check.status = info.model == PreemptModel::None ? Status::Fail : Status::Warn;
  check.detail += info.model == PreemptModel::Unknown
                      ? "Cannot tell how quickly the kernel lets a woken audio thread run."
                      : "Kernel code runs to its next preemption point before the audio thread "
                        "gets the CPU; under disk and /proc load that can take milliseconds (Benno Senoner, \"New "
                        "scheduling latencies during audio playing + heavy disk I/O\", 1999).";
  check.fix = info.dynamic ? std::string("Boot with preempt=full") + kGrubHow + "."
                           : "Install a fully preemptible kernel: Debian linux-image-rt-amd64, Ubuntu "
                             "linux-lowlatency, or Ubuntu 24.04's generic kernel booted with preempt=full.";
  return check;
}

}  // namespace

void checkPreemption(const SystemRoot& system, Profile profile, std::vector<Check>& out) {
  const KernelConfig config = readKernelConfig(system);
  out.push_back(preemptVerdict(detectPreemption(system, config, readCommandLine(system)), profile));
}

void checkTimerFrequency(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"kernel.hz", "Timer frequency (CONFIG_HZ)", Status::Pass, "", ""};
  const KernelConfig config = readKernelConfig(system);
  const std::optional<std::string> hzText = config.value("CONFIG_HZ");
  if (!hzText) {
    check.status = Status::Warn;
    check.detail = "CONFIG_HZ unknown: neither /proc/config.gz nor /boot/config-" +
                   system.uname.release + " is readable.";
    check.fix = "Load the configs module (modprobe configs) or install the kernel's config file, then rerun.";
    out.push_back(check);
    return;
  }
  const int hz = std::atoi(hzText->c_str());
  check.detail = "CONFIG_HZ=" + *hzText + " (from " + config.source + "): the scheduler tick is every " +
                 std::to_string(hz > 0 ? 1000 / hz : 0) + " ms. ";
  if (hz >= 1000) {
    check.detail += "Time slices and load balancing react within a millisecond.";
  } else {
    check.status = hz >= 250 ? Status::Warn : Status::Fail;
    check.detail += "High-resolution timers still wake audio threads on time, but everything the tick "
                    "drives (time slices, balancing, RCU) moves in coarser steps.";
    check.fix = "CONFIG_HZ is fixed when the kernel is built: use a kernel with HZ=1000 (Ubuntu 24.04 "
                "generic and lowlatency, Debian linux-image-rt-amd64).";
  }
  out.push_back(check);
}

void checkThreadedIrqs(const SystemRoot& system, std::vector<Check>& out) {
  Check check{"kernel.threadirqs", "Threaded interrupt handlers", Status::Pass, "", ""};
  const KernelConfig config = readKernelConfig(system);
  const KernelCommandLine cmdline = readCommandLine(system);
  const PreemptInfo preempt = detectPreemption(system, config, cmdline);
  if (preempt.model == PreemptModel::Rt) {
    check.detail = "PREEMPT_RT runs every interrupt handler in a thread.";
  } else if (cmdline.has("threadirqs")) {
    check.detail = "threadirqs is on the kernel command line: IRQ handlers run in threads whose "
                   "priority can be raised for the sound card.";
  } else if (!config.found() || config.enabled("CONFIG_IRQ_FORCED_THREADING")) {
    check.status = Status::Warn;
    check.detail = "threadirqs is not on the kernel command line: interrupt handlers run in hard-IRQ "
                   "context with no priority, so the sound card's cannot be put ahead of disk and network ones.";
    check.fix = std::string("Boot with threadirqs") + kGrubHow + ", then raise the sound card's IRQ "
                "thread above the others (rtirq-init).";
  } else {
    check.status = Status::Fail;
    check.detail = "This kernel was built without CONFIG_IRQ_FORCED_THREADING: IRQ handlers cannot run in threads.";
    check.fix = "Use a kernel with CONFIG_IRQ_FORCED_THREADING=y (every Debian/Ubuntu kernel) or PREEMPT_RT.";
  }
  out.push_back(check);
}

namespace {

std::string isolationWords(const KernelCommandLine& cmdline) {
  std::string found;
  for (const char* key : {"nohz_full", "isolcpus", "rcu_nocbs", "irqaffinity"}) {
    if (const std::optional<std::string> v = cmdline.value(key)) {
      found += (found.empty() ? "" : " ") + std::string(key) + "=" + *v;
    }
  }
  return found;
}

}  // namespace

void checkCpuIsolation(const SystemRoot& system, Profile profile, std::vector<Check>& out) {
  Check check{"kernel.isolation", "CPU isolation (nohz_full, isolcpus, rcu_nocbs)", Status::Pass, "", ""};
  const KernelCommandLine cmdline = readCommandLine(system);
  const KernelConfig config = readKernelConfig(system);
  const std::string found = isolationWords(cmdline);
  check.detail = found.empty() ? "None on the kernel command line. " : "Kernel command line has: " + found + ". ";
  if (profile == Profile::Throughput) {
    if (cmdline.has("nohz_full")) {
      check.status = Status::Warn;
      check.detail += "nohz_full halved large-write IOPS in Ubuntu's tests (\"Enable low latency features in "
                      "the generic Ubuntu kernel for 24.04\", Ubuntu kernel team, 2023).";
      check.fix = "For throughput, remove nohz_full from the kernel command line.";
    }
  } else if (profile == Profile::PowerSave) {
    if (!cmdline.has("rcu_nocbs")) {
      check.status = Status::Warn;
      check.detail += "Offloaded, lazy RCU callbacks saved about 5% power under load (\"Enable low latency "
                      "features in the generic Ubuntu kernel for 24.04\", Ubuntu kernel team, 2023).";
      check.fix = std::string("Boot with rcu_nocbs=all rcutree.enable_rcu_lazy=1") + kGrubHow + ".";
    }
  } else if (found.empty()) {
    check.status = Status::Warn;
    check.detail += "Optional: a CPU kept free of other tasks, ticks and RCU callbacks cut a Pi 3's "
                    "worst wakeup from 26 to 16 us (\"RaspBerry PI - The Audio Engine - Part 7 - Realtime Kernel\", "
                    "2018).";
    check.fix = std::string("Reserve the last CPU for audio: nohz_full=N rcu_nocbs=N irqaffinity=0") +
                kGrubHow + "; then run JACK pinned there (taskset -c N).";
  } else if (cmdline.has("nohz_full") && config.found() && !config.enabled("CONFIG_NO_HZ_FULL")) {
    check.status = Status::Warn;
    check.detail += "But the kernel is built without CONFIG_NO_HZ_FULL, so nohz_full is ignored.";
    check.fix = "Use a kernel with CONFIG_NO_HZ_FULL=y (Ubuntu 24.04 generic) or drop nohz_full.";
  }
  out.push_back(check);
}

}  // namespace spindle::tools
