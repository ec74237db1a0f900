#pragma once
// Fixture /proc, /sys, /boot, /etc/security and /dev trees for the doctor's checks: an RT
// kernel machine tuned for audio, an Ubuntu lowlatency one, a stock generic one, and an
// empty tree where every file is missing.
#include <string>

#include "ToolTestSupport.h"
#include "catch.h"
#include "tools/SystemRoot.h"

namespace spindle::test {

using tools::Limit;
using tools::SystemRoot;

inline void writeCpus(const TempDir& tree, int count, const std::string& governor) {
  for (int i = 0; i < count; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(i) + "/cpufreq/";
    tree.write(dir + "scaling_governor", governor + "\n");
    tree.write(dir + "scaling_available_governors", "performance powersave schedutil\n");
  }
}

// argv as /proc/PID/cmdline holds it: every argument followed by a NUL.
inline std::string nulJoin(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) out += a + '\0';
  return out;
}

// A process entry: comm, NUL-separated cmdline, and a stat line with the given rt_priority.
inline void writeProcess(const TempDir& tree, int pid, const std::string& comm, const std::string& cmdline,
                         int rtPriority = 0) {
  const std::string dir = "/proc/" + std::to_string(pid) + "/";
  tree.write(dir + "comm", comm + "\n");
  tree.write(dir + "cmdline", cmdline);
  std::string stat = std::to_string(pid) + " (" + comm + ") S";
  for (int field = 4; field <= 39; ++field) stat += " 0";
  stat += " " + std::to_string(rtPriority) + " " + (rtPriority > 0 ? "1" : "0") + " 0 0\n";
  tree.write(dir + "stat", stat);
}

inline const char* const kSwapsActive =
    "Filename\tType\tSize\tUsed\tPriority\n/dev/sda3 partition\t8388604\t0\t-2\n";
inline const char* const kSoundInterrupts =
    "           CPU0       CPU1\n"
    "  16:         12          0  IO-APIC  16-fasteoi   ehci_hcd:usb1\n"
    " 135:       4011        233  IR-PCI-MSI 514048-edge      snd_hda_intel:card0\n";

// PREEMPT_RT, HZ=1000, an isolated CPU, performance governor, audio user with full limits,
// jackd at 128 frames, the sound IRQ thread raised to 90: every check passes.
inline SystemRoot rtTree(const TempDir& tree) {
  SystemRoot s = SystemRoot::fixture(tree.path());
  s.uname = {"6.1.0-18-rt-amd64", "#1 SMP PREEMPT_RT Debian 6.1.76-1 (2024-02-01)", "x86_64"};
  s.user = {1000, 1000, "ana", {"ana", "audio"}};
  s.rtprio = {95, 95};
  s.memlock = {Limit::kUnlimited, Limit::kUnlimited};
  tree.write("/boot/config-6.1.0-18-rt-amd64",
             "CONFIG_PREEMPT_RT=y\nCONFIG_HZ_1000=y\nCONFIG_HZ=1000\nCONFIG_NO_HZ_FULL=y\n"
             "CONFIG_IRQ_FORCED_THREADING=y\n# CONFIG_PREEMPT_VOLUNTARY is not set\n");
  tree.write("/proc/cmdline", "BOOT_IMAGE=/vmlinuz-6.1.0-18-rt-amd64 root=/dev/sda1 quiet nohz_full=3 rcu_nocbs=3\n");
  writeCpus(tree, 4, "performance");
  tree.write("/etc/security/limits.d/audio.conf", "@audio   -  rtprio     95\n@audio   -  memlock    unlimited\n");
  tree.write("/dev/cpu_dma_latency", "", 0666);
  tree.write("/proc/sys/vm/swappiness", "10\n");
  tree.write("/proc/swaps", kSwapsActive);
  writeProcess(tree, 812, "jackd",
               nulJoin({"/usr/bin/jackd", "-R", "-P", "85", "-d", "alsa", "-d", "hw:0", "-r", "48000", "-p", "128", "-n", "2"}));
  tree.write("/proc/interrupts", kSoundInterrupts);
  writeProcess(tree, 77, "irq/135-snd_hda_intel:card0", "", 90);
  writeProcess(tree, 78, "irq/16-ehci_hcd:usb1", "", 50);
  return s;
}

// Ubuntu 24.04 lowlatency: PREEMPT_DYNAMIC in full mode (debugfs), HZ=1000 from
// /proc/config.gz, threadirqs; schedutil, rtprio 50, 256 MiB memlock, PipeWire at 1024.
inline SystemRoot lowlatencyTree(const TempDir& tree) {
  SystemRoot s = SystemRoot::fixture(tree.path());
  s.uname = {"6.8.0-31-lowlatency", "#31.1-Ubuntu SMP PREEMPT_DYNAMIC Mon Apr 22 2024", "x86_64"};
  s.user = {1000, 1000, "bo", {"bo", "audio"}};
  s.rtprio = {50, 50};
  s.memlock = {256ull << 20, 256ull << 20};
  const std::string config = tree.write("/proc/config", "CONFIG_PREEMPT=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_HZ=1000\n"
                                                        "CONFIG_IRQ_FORCED_THREADING=y\nCONFIG_NO_HZ_FULL=y\n").string();
  REQUIRE(std::system(("gzip -9 -f '" + config + "'").c_str()) == 0);  // -> /proc/config.gz
  tree.write("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
  tree.write("/proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.8.0-31-lowlatency ro quiet splash threadirqs\n");
  writeCpus(tree, 2, "schedutil");
  tree.write("/dev/cpu_dma_latency", "", 0666);
  tree.write("/proc/sys/vm/swappiness", "60\n");
  tree.write("/proc/swaps", kSwapsActive);
  writeProcess(tree, 1500, "pipewire", nulJoin({"/usr/bin/pipewire"}));
  s.runCommand = [](const std::vector<std::string>& argv) -> std::optional<std::string> {
    if (argv.size() < 3 || argv[0] != "pw-metadata") return std::nullopt;
    return std::string("Found \"settings\" metadata 32\n"
                       "update: id:0 key:'clock.rate' value:'48000' type:''\n"
                       "update: id:0 key:'clock.quantum' value:'1024' type:''\n"
                       "update: id:0 key:'clock.force-quantum' value:'0' type:''\n"
                       "update: id:0 key:'clock.force-rate' value:'0' type:''\n");
  };
  tree.write("/proc/interrupts", kSoundInterrupts);
  writeProcess(tree, 77, "irq/135-snd_hda_intel:card0", "", 50);
  return s;
}

// Debian 12 generic: PREEMPT_DYNAMIC booted voluntary (the build default), HZ=250, nothing
// tuned; a user outside the audio group with default limits.
inline SystemRoot genericTree(const TempDir& tree) {
  SystemRoot s = SystemRoot::fixture(tree.path());
  s.uname = {"6.1.0-18-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)", "x86_64"};
  s.user = {1000, 1000, "cy", {"cy", "users"}};
  tree.write("/boot/config-6.1.0-18-amd64",
             "CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n"
             "CONFIG_IRQ_FORCED_THREADING=y\n# CONFIG_NO_HZ_FULL is not set\n");
  tree.write("/proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 root=UUID=1234 ro quiet\n");
  writeCpus(tree, 4, "ondemand");
  tree.write("/etc/security/limits.conf", "# /etc/security/limits.conf\n#*  soft  core  0\n");
  tree.write("/etc/security/limits.d/audio.conf", "@audio   -  rtprio     95\n@audio   -  memlock    unlimited\n");
  tree.write("/dev/cpu_dma_latency", "", 0600);
  tree.write("/proc/sys/vm/swappiness", "60\n");
  tree.write("/proc/swaps", kSwapsActive);
  tree.write("/proc/interrupts", "           CPU0\n  16:   12   IO-APIC  16-fasteoi   ehci_hcd:usb1\n");
  writeProcess(tree, 1, "systemd", nulJoin({"/sbin/init"}));
  return s;
}

// Nothing there at all: a kernel without PREEMPT in its version and no readable files.
inline SystemRoot missingTree(const TempDir& tree) {
  SystemRoot s = SystemRoot::fixture(tree.path());
  s.uname = {"5.10.0-unknown", "#1 SMP", "x86_64"};
  return s;
}

}  // namespace spindle::test
