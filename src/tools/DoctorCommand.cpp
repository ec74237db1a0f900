#include "tools/DoctorCommand.h"

#include <csignal>

#include "tools/Apply.h"
#include "tools/CliArgs.h"
#include "tools/DoctorFormat.h"

namespace spindle::tools {
namespace {

const char* const kDoctorUsage =
    "Usage: spindle-doctor [--json] [--profile lowlatency|throughput|powersave] [--apply [--hold]]\n"
    "Checks whether this machine can play audio at 2-5 ms and says what to change.\n"
    "  --json       machine-readable report\n"
    "  --profile P  what to tune for (default lowlatency); prints its boot, sysctl and limits changes\n"
    "  --apply      as root: apply the profile's runtime changes (CPU governor; for lowlatency a\n"
    "               0 us /dev/cpu_dma_latency hold, which lasts while the file is held open)\n"
    "  --hold       with --apply: keep holding /dev/cpu_dma_latency until Ctrl-C or SIGTERM\n"
    "  --help, --version\n"
    "Each check prints PASS, WARN or FAIL, why, and the fix. Exit status: 0, 1 if --apply failed, 2 usage.\n";

struct DoctorOptions {
  bool json = false, apply = false, hold = false, help = false, version = false;
  Profile profile = Profile::LowLatency;
};

bool parseDoctorArgs(const std::vector<std::string>& args, DoctorOptions& o, std::ostream& err) {
  ArgCursor cursor(args);
  while (!cursor.done()) {
    bool missing = false;
    if (cursor.flag("--json")) {
      o.json = true;
    } else if (cursor.flag("--apply")) {
      o.apply = true;
    } else if (cursor.flag("--hold")) {
      o.hold = true;
    } else if (cursor.flag("--help", "-h")) {
      o.help = true;
    } else if (cursor.flag("--version")) {
      o.version = true;
    } else if (std::optional<std::string> p = cursor.option("--profile", "", missing)) {
      if (!parseProfile(*p, o.profile)) {
        err << "spindle-doctor: unknown profile '" << *p << "' (lowlatency, throughput, powersave)\n";
        return false;
      }
    } else {
      err << "spindle-doctor: " << (missing ? "missing value for " : "unknown argument ") << cursor.current() << "\n"
          << kDoctorUsage;
      return false;
    }
  }
  if (o.hold && !o.apply) err << "spindle-doctor: --hold only means something with --apply\n";
  return !(o.hold && !o.apply);
}

void waitForStopSignal() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
  int received = 0;
  sigwait(&signals, &received);
}

int applyAndReport(const SystemRoot& system, const DoctorOptions& o, const DoctorReport& report,
                   const ProfileChanges& changes, std::ostream& out) {
  CpuDmaLatencyHold hold;
  const ApplyResult result = applyRuntime(system, o.profile, hold);
  if (o.json) {
    printDoctorJson(out, report, changes, &result);
  } else {
    printDoctorText(out, report, changes);
    printApplyText(out, result);
  }
  if (hold.held() && o.hold) {
    out << "Holding /dev/cpu_dma_latency at 0 us until Ctrl-C or SIGTERM..." << std::endl;
    waitForStopSignal();
    out << "Released /dev/cpu_dma_latency.\n";
  } else if (hold.held() && !o.json) {
    out << "  note:   the /dev/cpu_dma_latency hold ends as spindle-doctor exits; to keep it while you play,\n"
           "          run spindle-doctor --apply --hold (it holds until Ctrl-C).\n";
  }
  return result.failed.empty() ? 0 : 1;
}

}  // namespace

int runDoctorCommand(const std::vector<std::string>& args, const SystemRoot& system, std::ostream& out,
                     std::ostream& err) {
  DoctorOptions o;
  if (!parseDoctorArgs(args, o, err)) return 2;
  if (o.help) {
    out << kDoctorUsage;
    return 0;
  }
  if (o.version) {
    printVersion(out, "spindle-doctor");
    return 0;
  }
  if (o.apply && system.user.euid != 0) {
    err << "spindle-doctor: --apply changes CPU governors and holds /dev/cpu_dma_latency, which only root may do.\n"
           "Run: sudo spindle-doctor --apply --profile " << profileName(o.profile) << "\n";
    return 1;
  }
  const DoctorReport report = runDoctor(system, o.profile);
  const ProfileChanges changes = profileChanges(o.profile, countCpus(system));
  if (o.apply) return applyAndReport(system, o, report, changes, out);
  if (o.json) {
    printDoctorJson(out, report, changes, nullptr);
  } else {
    printDoctorText(out, report, changes);
  }
  return 0;
}

}  // namespace spindle::tools
