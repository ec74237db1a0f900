#include "tools/DiskBenchCommand.h"

#include "control/UserSettings.h"
#include "tools/CliArgs.h"
#include "tools/DiskBenchReport.h"

namespace spindle::tools {
namespace {

const char* const kDiskBenchUsage =
    "Usage: spindle-diskbench [--quick] [--starts-only] [--save] [--files N] [--file-mb N]\n"
    "                         [--seconds-per-size S] [DIR]\n"
    "Benchmarks disk streaming like a disk sampler reads: N large files in a temporary folder in\n"
    "DIR (default: the current folder; removed afterwards), random seeks, then round-robin reads\n"
    "of 64 KiB to 2 MiB from a cold cache (MiB/s, stereo voices, the read size); then how long a\n"
    "stream takes to start under load through Spindle's own disk thread, and the preload that\n"
    "covers it on this disk.\n"
    "  --quick              4 files of 64 MiB, 3 s per read size, 4 s of stream starts (chosen by\n"
    "                       itself when DIR has less than twice the full size free)\n"
    "  --starts-only        only the stream starts and the preload\n"
    "  --save               keep the preload as the setting (~/.config/spindle/spindle.conf):\n"
    "                       spindle and its window use it when no --preload-frames is given\n"
    "  --files N            number of files (default 4)\n"
    "  --file-mb N          size of each file in MiB (default 750, as in the 2004 benchmark)\n"
    "  --seconds-per-size S time limit of each read-size pass (default 10)\n"
    "  --help, --version\n";

struct BenchArgs {
  DiskBenchOptions bench;
  bool quick = false, sizeGiven = false, help = false, version = false, startsOnly = false, save = false;
};

bool parseOne(ArgCursor& cursor, BenchArgs& a, std::string& error) {
  bool missing = false;
  long long n = 0;
  if (auto files = cursor.option("--files", "", missing)) {
    if (!parseInt(*files, 1, 64, n)) error = "--files wants 1..64";
    a.bench.files = static_cast<int>(n);
  } else if (auto mb = cursor.option("--file-mb", "", missing)) {
    if (!parseInt(*mb, 1, 1 << 20, n)) error = "--file-mb wants 1..1048576";
    a.bench.fileBytes = static_cast<uint64_t>(n) << 20;
    a.sizeGiven = true;
  } else if (auto secs = cursor.option("--seconds-per-size", "", missing)) {
    if (!parseNumber(*secs, 0.1, 3600, a.bench.secondsPerSize)) error = "--seconds-per-size wants 0.1..3600";
  } else if (missing) {
    error = "missing value for " + cursor.current();
  } else if (cursor.current().rfind("-", 0) == 0) {
    error = "unknown argument " + cursor.current();
  } else if (!a.bench.dir.empty()) {
    error = "only one DIR, please";
  } else {
    a.bench.dir = cursor.current();
    cursor.next();
  }
  return error.empty();
}

bool parseBenchArgs(const std::vector<std::string>& args, BenchArgs& a, std::ostream& err) {
  ArgCursor cursor(args);
  while (!cursor.done()) {
    std::string error;
    if (cursor.flag("--help", "-h")) {
      a.help = true;
    } else if (cursor.flag("--version")) {
      a.version = true;
    } else if (cursor.flag("--quick")) {
      a.quick = true;
    } else if (cursor.flag("--starts-only")) {
      a.startsOnly = true;
    } else if (cursor.flag("--save")) {
      a.save = true;
    } else if (!parseOne(cursor, a, error)) {
      err << "spindle-diskbench: " << error << "\n" << kDiskBenchUsage;
      return false;
    }
  }
  if (a.bench.dir.empty()) a.bench.dir = ".";
  return true;
}

// --quick, or a disk without room for twice the full-size files, gets the small benchmark.
void chooseSize(BenchArgs& a, std::ostream& out) {
  std::error_code ec;
  const std::filesystem::space_info space = std::filesystem::space(a.bench.dir, ec);
  const uint64_t needed = 2 * a.bench.fileBytes * static_cast<uint64_t>(a.bench.files);
  const bool small = !ec && !a.sizeGiven && space.available < needed;
  if (small && !a.quick) out << "Only " << (space.available >> 20) << " MiB free in " << a.bench.dir.string() << ": using --quick sizes.\n";
  if (!a.quick && !small) return;
  if (!a.sizeGiven) a.bench.fileBytes = 64ull << 20;
  a.bench.secondsPerSize = std::min(a.bench.secondsPerSize, 3.0);
  a.bench.seeks = std::min(a.bench.seeks, 200);
}

int savePreload(int64_t frames, std::ostream& out, std::ostream& err) {
  const std::filesystem::path file = control::userSettingsFile();
  std::string error;
  if (!control::writeSetting(file, "engine", "preloadFrames", frames, error)) {
    err << "spindle-diskbench: " << error << "\n";
    return 1;
  }
  out << "Saved: preload " << frames << " frames in " << file.string() << "\n";
  return 0;
}

}  // namespace

int runDiskBenchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  BenchArgs a;
  if (!parseBenchArgs(args, a, err)) return 2;
  if (a.help || a.version) {
    if (a.help) out << kDiskBenchUsage;
    if (a.version) printVersion(out, "spindle-diskbench");
    return 0;
  }
  chooseSize(a, out);
  const auto progress = [&](const std::string& line) { out << line << std::endl; };
  if (!a.startsOnly) {
    const DiskBenchResult result = runDiskBench(a.bench, progress);
    if (!result.error.empty()) {
      err << "spindle-diskbench: " << result.error << "\n";
      return 1;
    }
    printDiskBench(out, result);
  }
  StreamStartOptions starts;
  starts.dir = a.bench.dir;
  if (a.quick) starts = quickStreamStart(starts);
  const StreamStartResult result = runStreamStart(starts, progress);
  printStreamStart(out, result);
  if (!result.error.empty()) return 1;
  return a.save ? savePreload(result.preloadFrames, out, err) : 0;
}

}  // namespace spindle::tools
