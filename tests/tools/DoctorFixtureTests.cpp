// Every doctor check against the four fixture trees: status, explanation and fix.
#include "CheckExpect.h"
#include "FixtureTrees.h"

namespace doctor_fixture_tests {

using namespace spindle::test;
using spindle::tools::DoctorReport;
using spindle::tools::Profile;
using spindle::tools::runDoctor;
using spindle::tools::Status;

TEST_CASE("doctor: an RT kernel tuned for audio passes every check") {
  TempDir tree("doctor-rt");
  const DoctorReport r = runDoctor(rtTree(tree), Profile::LowLatency);
  REQUIRE(r.checks.size() == 12);
  CHECK(r.count(Status::Pass) == 12);
  expectCheck(r, "kernel.preempt", Status::Pass, "model rt", "");
  expectCheck(r, "kernel.hz", Status::Pass, "CONFIG_HZ=1000 (from /boot/config-6.1.0-18-rt-amd64)", "");
  expectCheck(r, "kernel.threadirqs", Status::Pass, "PREEMPT_RT runs every interrupt handler in a thread", "");
  expectCheck(r, "kernel.isolation", Status::Pass, "nohz_full=3 rcu_nocbs=3", "");
  expectCheck(r, "cpu.governor", Status::Pass, "performance on 4 CPU(s)", "");
  expectCheck(r, "limits.rtprio", Status::Pass, "RLIMIT_RTPRIO for ana: 95 (hard 95)", "");
  expectCheck(r, "limits.memlock", Status::Pass, "unlimited (hard unlimited)", "");
  expectCheck(r, "user.audio_group", Status::Pass, "@audio rtprio 95 (/etc/security/limits.d/audio.conf)", "");
  expectCheck(r, "cpu.dma_latency", Status::Pass, "Writable", "");
  expectCheck(r, "vm.swappiness", Status::Pass, "vm.swappiness=10, swap active", "");
  expectCheck(r, "audio.server", Status::Pass, "jackd (pid 812) runs with a period of 128 frames at 48000 Hz = 2.67 ms", "");
  expectCheck(r, "irq.sound_thread", Status::Pass, "irq/135-snd_hda_intel:card0 (pid 77) runs at SCHED_FIFO 90", "");
}

TEST_CASE("doctor: Ubuntu lowlatency kernel with PipeWire at its default quantum") {
  TempDir tree("doctor-lowlatency");
  const DoctorReport r = runDoctor(lowlatencyTree(tree), Profile::LowLatency);
  expectCheck(r, "kernel.preempt", Status::Pass,
              "PREEMPT_DYNAMIC kernel, model full (lowlatency build), from /sys/kernel/debug/sched/preempt", "");
  expectCheck(r, "kernel.hz", Status::Pass, "CONFIG_HZ=1000 (from /proc/config.gz)", "");
  expectCheck(r, "kernel.threadirqs", Status::Pass, "threadirqs is on the kernel command line", "");
  expectCheck(r, "kernel.isolation", Status::Warn, "None on the kernel command line", "nohz_full=N rcu_nocbs=N");
  expectCheck(r, "cpu.governor", Status::Warn, "schedutil on 2 CPU(s)", "cpupower frequency-set -g performance");
  expectCheck(r, "limits.rtprio", Status::Pass, "50 (hard 50)", "");
  expectCheck(r, "limits.memlock", Status::Warn, "256 MiB (hard 256 MiB)", "'@audio - memlock unlimited'");
  expectCheck(r, "user.audio_group", Status::Warn, "no limits file grants @audio rtprio", "'@audio - rtprio 95'");
  expectCheck(r, "cpu.dma_latency", Status::Pass, "Writable", "");
  expectCheck(r, "vm.swappiness", Status::Warn, "vm.swappiness=60, swap active", "vm.swappiness = 10");
  expectCheck(r, "audio.server", Status::Warn, "pipewire (pid 1500) runs with a period of 1024 frames at 48000 Hz = 21.3 ms",
              "clock.force-quantum 128");
  expectCheck(r, "irq.sound_thread", Status::Warn, "SCHED_FIFO 50, the default", "chrt -f -p 90");
}

TEST_CASE("doctor: the lowlatency tree judged for the powersave and throughput profiles") {
  TempDir tree("doctor-profiles");
  const auto system = lowlatencyTree(tree);
  const DoctorReport power = runDoctor(system, Profile::PowerSave);
  expectCheck(power, "cpu.governor", Status::Pass, "Fits the powersave profile", "");
  expectCheck(power, "kernel.isolation", Status::Warn, "lazy RCU", "rcu_nocbs=all rcutree.enable_rcu_lazy=1");
  const DoctorReport throughput = runDoctor(system, Profile::Throughput);
  expectCheck(throughput, "cpu.governor", Status::Pass, "Fits the throughput profile", "");
  expectCheck(throughput, "kernel.isolation", Status::Pass, "None on the kernel command line", "");
  expectCheck(throughput, "kernel.preempt", Status::Pass, "Any model serves the throughput profile", "");
}

TEST_CASE("doctor: a stock generic kernel and an untuned user") {
  TempDir tree("doctor-generic");
  const DoctorReport r = runDoctor(genericTree(tree), Profile::LowLatency);
  expectCheck(r, "kernel.preempt", Status::Warn,
              "model voluntary, from the build default in /boot/config-6.1.0-18-amd64", "Boot with preempt=full");
  expectCheck(r, "kernel.hz", Status::Warn, "CONFIG_HZ=250 (from /boot/config-6.1.0-18-amd64): the scheduler tick is every 4 ms",
              "use a kernel with HZ=1000");
  expectCheck(r, "kernel.threadirqs", Status::Warn, "threadirqs is not on the kernel command line", "Boot with threadirqs");
  expectCheck(r, "kernel.isolation", Status::Warn, "None on the kernel command line", "nohz_full=N");
  expectCheck(r, "cpu.governor", Status::Warn, "ondemand on 4 CPU(s)", "cpupower frequency-set -g performance");
  expectCheck(r, "limits.rtprio", Status::Fail, "RLIMIT_RTPRIO for cy: 0 (hard 0)", "'@audio - rtprio 95'");
  expectCheck(r, "limits.memlock", Status::Fail, "8 MiB (hard 8 MiB)", "'@audio - memlock unlimited'");
  expectCheck(r, "user.audio_group", Status::Warn, "cy is not in the audio group", "usermod -aG audio cy");
  expectCheck(r, "cpu.dma_latency", Status::Warn, "not writable by cy", "KERNEL==\"cpu_dma_latency\", GROUP=\"audio\"");
  expectCheck(r, "vm.swappiness", Status::Warn, "vm.swappiness=60, swap active", "vm.swappiness = 10");
  expectCheck(r, "audio.server", Status::Warn, "Neither jackd, jackdbus nor pipewire is running", "Start JACK");
  expectCheck(r, "irq.sound_thread", Status::Warn, "No sound card interrupt", "xhci_hcd");
  CHECK(r.count(Status::Fail) == 2);
}

TEST_CASE("doctor: a tree where every file is missing") {
  TempDir tree("doctor-missing");
  const DoctorReport r = runDoctor(missingTree(tree), Profile::LowLatency);
  expectCheck(r, "kernel.preempt", Status::Warn, "model unknown", "Install a fully preemptible kernel");
  expectCheck(r, "kernel.hz", Status::Warn, "CONFIG_HZ unknown", "modprobe configs");
  expectCheck(r, "kernel.threadirqs", Status::Warn, "threadirqs is not on the kernel command line", "Boot with threadirqs");
  expectCheck(r, "kernel.isolation", Status::Warn, "None on the kernel command line", "nohz_full=N");
  expectCheck(r, "cpu.governor", Status::Pass, "No cpufreq", "");
  expectCheck(r, "limits.rtprio", Status::Fail, "No real-time scheduling at all", "'@audio - rtprio 95'");
  expectCheck(r, "limits.memlock", Status::Fail, "8 MiB", "'@audio - memlock unlimited'");
  expectCheck(r, "user.audio_group", Status::Warn, "no limits file grants @audio rtprio", "'@audio - rtprio 95'");
  expectCheck(r, "cpu.dma_latency", Status::Warn, "/dev/cpu_dma_latency is missing", "processor.max_cstate=1");
  expectCheck(r, "vm.swappiness", Status::Warn, "not readable", "Check that /proc is mounted");
  expectCheck(r, "audio.server", Status::Warn, "Neither jackd", "Start JACK");
  expectCheck(r, "irq.sound_thread", Status::Warn, "No sound card interrupt", "xhci_hcd");
}

}  // namespace doctor_fixture_tests
