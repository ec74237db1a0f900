// Single-file variations on the fixture trees: each branch of each check's verdict.
#include "CheckExpect.h"
#include "FixtureTrees.h"
#include "tools/KernelInfo.h"

namespace doctor_variant_tests {

using namespace spindle::test;
using spindle::tools::DoctorReport;
using spindle::tools::Profile;
using spindle::tools::runDoctor;
using spindle::tools::Status;

TEST_CASE("doctor: preemption model from the boot option, uname and config") {
  TempDir tree("doctor-preempt");
  auto system = genericTree(tree);
  tree.write("/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro quiet preempt=none\n");
  expectCheck(runDoctor(system, Profile::LowLatency), "kernel.preempt", Status::Fail,
              "model none, from preempt=none on the kernel command line", "Boot with preempt=full");
  tree.write("/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro quiet preempt=full\n");
  expectCheck(runDoctor(system, Profile::LowLatency), "kernel.preempt", Status::Pass, "model full, from preempt=full", "");
  system.uname.version = "#1 SMP PREEMPT Fri Jan 5 2024";
  tree.write("/boot/config-6.1.0-18-amd64", "CONFIG_PREEMPT=y\nCONFIG_HZ=300\n");
  expectCheck(runDoctor(system, Profile::LowLatency), "kernel.preempt", Status::Pass, "model full, from uname -v", "");
  system.uname.version = "#1 SMP Debian";
  tree.write("/boot/config-6.1.0-18-amd64", "CONFIG_PREEMPT_NONE=y\nCONFIG_HZ=100\n");
  const DoctorReport r = runDoctor(system, Profile::LowLatency);
  expectCheck(r, "kernel.preempt", Status::Fail, "model none", "Install a fully preemptible kernel");
  expectCheck(r, "kernel.hz", Status::Fail, "CONFIG_HZ=100", "HZ=1000");
  expectCheck(r, "kernel.threadirqs", Status::Fail, "without CONFIG_IRQ_FORCED_THREADING", "CONFIG_IRQ_FORCED_THREADING=y");
}

TEST_CASE("doctor: /sys/kernel/realtime marks an RT kernel whatever uname says") {
  TempDir tree("doctor-realtime-flag");
  auto system = genericTree(tree);
  tree.write("/sys/kernel/realtime", "1\n");
  expectCheck(runDoctor(system, Profile::LowLatency), "kernel.preempt", Status::Pass, "model rt, from /sys/kernel/realtime", "");
}

TEST_CASE("doctor: nohz_full on a kernel without NO_HZ_FULL, and for the throughput profile") {
  TempDir tree("doctor-nohz");
  auto system = genericTree(tree);
  tree.write("/proc/cmdline", "ro quiet nohz_full=2-3 isolcpus=2-3\n");
  expectCheck(runDoctor(system, Profile::LowLatency), "kernel.isolation", Status::Warn,
              "built without CONFIG_NO_HZ_FULL", "CONFIG_NO_HZ_FULL=y");
  expectCheck(runDoctor(system, Profile::Throughput), "kernel.isolation", Status::Warn, "halved large-write IOPS",
              "remove nohz_full");
}

TEST_CASE("doctor: jackd command lines: defaults, attached and long options") {
  TempDir tree("doctor-jackd");
  auto system = genericTree(tree);
  writeProcess(tree, 900, "jackd", nulJoin({"jackd", "-d", "dummy"}));
  expectCheck(runDoctor(system, Profile::LowLatency), "audio.server", Status::Warn,
              "1024 frames at 48000 Hz = 21.3 ms", "-p 128");
  writeProcess(tree, 900, "jackd", nulJoin({"jackd", "-p", "512", "-r", "-dalsa", "-p64", "--rate=44100"}));
  expectCheck(runDoctor(system, Profile::LowLatency), "audio.server", Status::Pass, "64 frames at 44100 Hz = 1.45 ms", "");
  writeProcess(tree, 900, "jackdbus", nulJoin({"jackdbus", "auto"}));
  expectCheck(runDoctor(system, Profile::LowLatency), "audio.server", Status::Pass,
              "jackdbus (pid 900) runs; its period and rate are not visible", "");
}

TEST_CASE("doctor: PipeWire with a forced quantum, and without pw-metadata") {
  TempDir tree("doctor-pipewire");
  auto system = lowlatencyTree(tree);
  system.runCommand = [](const std::vector<std::string>&) -> std::optional<std::string> {
    return std::string("update: id:0 key:'clock.rate' value:'48000' type:''\n"
                       "update: id:0 key:'clock.quantum' value:'1024' type:''\n"
                       "update: id:0 key:'clock.force-quantum' value:'128' type:''\n");
  };
  expectCheck(runDoctor(system, Profile::LowLatency), "audio.server", Status::Pass, "128 frames at 48000 Hz = 2.67 ms", "");
  system.runCommand = [](const std::vector<std::string>&) { return std::optional<std::string>(); };
  expectCheck(runDoctor(system, Profile::LowLatency), "audio.server", Status::Pass, "pw-metadata -n settings gave nothing", "");
}

TEST_CASE("doctor: a sound interrupt without an IRQ thread") {
  TempDir tree("doctor-irq");
  auto system = genericTree(tree);
  tree.write("/proc/interrupts", kSoundInterrupts);
  expectCheck(runDoctor(system, Profile::LowLatency), "irq.sound_thread", Status::Warn,
              "IRQ 135 (sound) has no irq/ thread", "Boot with threadirqs");
}

TEST_CASE("doctor: root needs no limits or group; small rtprio limits warn") {
  TempDir tree("doctor-root");
  auto system = genericTree(tree);
  system.rtprio = {20, 20};
  expectCheck(runDoctor(system, Profile::LowLatency), "limits.rtprio", Status::Warn, "Too low", "'@audio - rtprio 95'");
  system.user = {0, 0, "root", {"root"}};
  const DoctorReport r = runDoctor(system, Profile::LowLatency);
  expectCheck(r, "limits.rtprio", Status::Pass, "Running as root: CAP_SYS_NICE", "");
  expectCheck(r, "limits.memlock", Status::Pass, "Running as root: CAP_IPC_LOCK", "");
  expectCheck(r, "user.audio_group", Status::Pass, "Running as root", "");
  expectCheck(r, "cpu.dma_latency", Status::Pass, "Writable", "");
}

TEST_CASE("doctor: swap off makes swappiness irrelevant") {
  TempDir tree("doctor-swap");
  auto system = genericTree(tree);
  tree.write("/proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n");
  expectCheck(runDoctor(system, Profile::LowLatency), "vm.swappiness", Status::Pass, "swap not active", "");
}

TEST_CASE("kernel config: parsing keeps values and drops unset options") {
  const auto config = spindle::tools::parseKernelConfig(
      "# comment\nCONFIG_HZ=250\n# CONFIG_PREEMPT is not set\nCONFIG_LOCALVERSION=\"-rt\"\nCONFIG_SND=m\n", "test");
  CHECK(config.value("CONFIG_HZ") == std::optional<std::string>("250"));
  CHECK(config.value("CONFIG_LOCALVERSION") == std::optional<std::string>("-rt"));
  CHECK_FALSE(config.value("CONFIG_PREEMPT").has_value());
  CHECK(config.enabled("CONFIG_SND"));
  CHECK_FALSE(config.enabled("CONFIG_HZ"));
}

}  // namespace doctor_variant_tests
