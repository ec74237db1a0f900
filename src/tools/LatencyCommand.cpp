#include "tools/LatencyCommand.h"

#include <algorithm>
#include <thread>

#include "tools/CliArgs.h"
#include "tools/JackTest.h"
#include "tools/LatencyReport.h"
#include "tools/PeriodTable.h"
#include "tools/Stress.h"
#include "tools/WakeupTest.h"

namespace spindle::tools {
namespace {

const char* const kLatencyUsage =
    "Usage: spindle-latency [--seconds N] [--stress disk,cpu,proc] [-s|--server NAME] [options]\n"
    "Measures wakeup latency like cyclictest and JACK callbacks like latencytest, optionally\n"
    "under load, then prints the smallest period that would have had no overrun.\n"
    "  --seconds N       how long to measure (default 10)\n"
    "  --stress LIST     load while measuring: disk (write, copy, read back a file; at most\n"
    "                    256 MiB written, in a temporary folder removed afterwards), cpu (one\n"
    "                    busy thread per CPU), proc (read /proc like top -d 0.01)\n"
    "  --tmpdir DIR      where the disk stress writes (default: the system temporary folder)\n"
    "  -s, --server NAME JACK server (default $JACK_DEFAULT_SERVER, else 'default'); never started\n"
    "  --no-jack         measure only the wakeup thread\n"
    "  --interval US     wakeup interval (default 1000)\n"
    "  --priority P      SCHED_FIFO priority of the wakeup thread (default 80)\n"
    "  --dsp-load PCT    busy work in each JACK callback, % of the period (default 0)\n"
    "  --help, --version\n";

struct LatencyOptions {
  WakeupOptions wakeup;
  JackOptions jack;
  StressOptions stress;
  bool useJack = true, help = false, version = false;
};

bool parseValue(ArgCursor& cursor, LatencyOptions& o, std::ostream& err, bool& matched) {
  bool missing = false;
  long long n = 0;
  double x = 0;
  std::string error;
  matched = true;
  if (auto secs = cursor.option("--seconds", "", missing)) {
    if (!parseNumber(*secs, 0.1, 86400, x)) error = "--seconds wants 0.1..86400";
    o.wakeup.seconds = o.jack.seconds = x;
  } else if (auto interval = cursor.option("--interval", "", missing)) {
    if (!parseInt(*interval, 50, 1000000, n)) error = "--interval wants 50..1000000 us";
    o.wakeup.intervalUs = static_cast<int>(n);
  } else if (auto prio = cursor.option("--priority", "", missing)) {
    if (!parseInt(*prio, 1, 99, n)) error = "--priority wants 1..99";
    o.wakeup.priority = static_cast<int>(n);
  } else if (auto load = cursor.option("--dsp-load", "", missing)) {
    if (!parseNumber(*load, 0, 95, o.jack.loadPercent)) error = "--dsp-load wants 0..95";
  } else if (auto list = cursor.option("--stress", "", missing)) {
    parseStressList(*list, o.stress, error);
  } else if (auto server = cursor.option("--server", "-s", missing)) {
    o.jack.serverName = *server;
  } else if (auto tmp = cursor.option("--tmpdir", "", missing)) {
    o.stress.tempParent = *tmp;
  } else {
    matched = missing;
    if (missing) error = "missing value for " + cursor.current();
  }
  if (!error.empty()) err << "spindle-latency: " << error << "\n";
  return error.empty();
}

bool parseLatencyArgs(const std::vector<std::string>& args, LatencyOptions& o, std::ostream& err) {
  ArgCursor cursor(args);
  while (!cursor.done()) {
    bool matched = false;
    if (cursor.flag("--help", "-h")) {
      o.help = true;
    } else if (cursor.flag("--version")) {
      o.version = true;
    } else if (cursor.flag("--no-jack")) {
      o.useJack = false;
    } else if (!parseValue(cursor, o, err, matched)) {
      return false;
    } else if (!matched) {
      err << "spindle-latency: unknown argument " << cursor.current() << "\n" << kLatencyUsage;
      return false;
    }
  }
  return true;
}

std::string stressNames(const StressOptions& s) {
  std::string names;
  for (auto [on, name] : {std::pair{s.disk, "disk"}, std::pair{s.cpu, "cpu"}, std::pair{s.proc, "proc"}}) {
    if (on) names += (names.empty() ? "" : ",") + std::string(name);
  }
  return names.empty() ? "none" : names;
}

}  // namespace

int runLatencyCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  LatencyOptions o;
  if (!parseLatencyArgs(args, o, err)) return 2;
  if (o.help || o.version) {
    if (o.help) out << kLatencyUsage;
    if (o.version) printVersion(out, "spindle-latency");
    return 0;
  }
  out << "spindle-latency: measuring for " << o.wakeup.seconds << " s, stress: " << stressNames(o.stress)
      << std::endl;
  StressLoad stress(o.stress);
  stress.start();
  JackResult jack;
  std::thread jackThread([&] {
    if (o.useJack) jack = runJackTest(o.jack);
  });
  const WakeupResult wakeup = runWakeupTest(o.wakeup);
  jackThread.join();
  stress.stop();
  if (!o.useJack) jack.note = "skipped: --no-jack";
  for (const std::string& line : stress.summary()) out << "stress " << line << "\n";
  printWakeup(out, o.wakeup, wakeup);
  printJack(out, jack);
  const double worst = static_cast<double>(std::max(wakeup.lateness.maxUs(), jack.lateness.maxUs()));
  printPeriodTable(out, buildPeriodTable(worst, static_cast<double>(jack.duration.maxUs())), jack.ran);
  return 0;
}

}  // namespace spindle::tools
