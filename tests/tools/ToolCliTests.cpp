// The three executables as a user runs them: spindle-latency against a dummy jackd started
// here, spindle-diskbench --quick on a temporary folder, spindle-doctor --json, --help.
#include <regex>

#include "ToolTestSupport.h"
#include "catch.h"
#include "control/UserSettings.h"

namespace tool_cli_tests {

using namespace spindle::test;

namespace {

// "cycles N  min N us  avg X us  p50 N us  p99 N us  max N us" after `label`.
struct Summary {
  long long cycles = -1, min = -1, p50 = -1, p99 = -1, max = -1;
};

Summary summaryAfter(const std::string& out, const std::string& label) {
  static const std::regex line(R"(cycles (\d+)  min (\d+) us  avg [0-9.]+ us  p50 (\d+) us  p99 (\d+) us  max (\d+) us)");
  Summary s;
  const size_t at = out.find(label);
  std::smatch m;
  const std::string rest = at == std::string::npos ? "" : out.substr(at);
  if (std::regex_search(rest, m, line)) {
    s = {std::stoll(m[1]), std::stoll(m[2]), std::stoll(m[3]), std::stoll(m[4]), std::stoll(m[5])};
  }
  return s;
}

void checkPlausible(const Summary& s, long long minCycles) {
  CHECK(s.cycles >= minCycles);
  CHECK(s.min >= 0);
  CHECK(s.p50 >= s.min);
  CHECK(s.p99 >= s.p50);
  CHECK(s.max >= s.p99);
  CHECK(s.max < 3000000);
}

}  // namespace

TEST_CASE("spindle-latency --seconds 3 against a dummy jackd: histograms, maxima, period table") {
  TempDir logs("latency-cli");
  DummyJackServer jack("spindle-test-" + std::to_string(getpid()), logs.path());
  REQUIRE(jack.running());
  const RunResult r = runTool({SPINDLE_LATENCY_EXE, "--seconds", "3", "--server", jack.name()}, logs.path());
  INFO(r.out << "\njackd log:\n" << readAll(logs.path() / "jackd.log"));
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.find("histogram (us):") != std::string::npos);
  const Summary wakeup = summaryAfter(r.out, "Wakeup latency");
  checkPlausible(wakeup, 2000);
  CHECK(r.out.find("server '" + jack.name() + "': 256 frames at 48000 Hz (5.33 ms)") != std::string::npos);
  checkPlausible(summaryAfter(r.out, "callback lateness:"), 300);
  checkPlausible(summaryAfter(r.out, "callback duration:"), 300);
  for (const char* row : {"    32 ", "    64 ", "   128 ", "   256 ", "   512 ", "  1024 ", "  2048 "}) {
    CHECK(r.out.find(std::string("\n  ") + row) != std::string::npos);
  }
  CHECK(r.out.find("C = ") != std::string::npos);
  CHECK(r.out.find("(longest JACK callback)") != std::string::npos);
  CHECK(r.out.find("smallest safe period: ") != std::string::npos);
}

TEST_CASE("spindle-latency under disk, cpu and /proc stress, without JACK, leaves no files") {
  TempDir logs("latency-stress");
  TempDir scratch("latency-scratch");
  const RunResult r = runTool({SPINDLE_LATENCY_EXE, "--seconds", "1.5", "--no-jack", "--stress", "disk,cpu,proc",
                               "--tmpdir", scratch.path().string()},
                              logs.path());
  INFO(r.out);
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.find("stress disk: wrote ") != std::string::npos);
  CHECK(r.out.find("stress proc: read ") != std::string::npos);
  CHECK(r.out.find("stress cpu: ") != std::string::npos);
  CHECK(r.out.find("skipped: --no-jack") != std::string::npos);
  checkPlausible(summaryAfter(r.out, "Wakeup latency"), 500);
  CHECK(std::filesystem::is_empty(scratch.path()));
}

TEST_CASE("spindle-diskbench --quick on a temporary folder prints every read size") {
  TempDir logs("diskbench-cli");
  TempDir dir("diskbench-dir");
  const RunResult r = runTool({SPINDLE_DISKBENCH_EXE, "--quick", dir.path().string()}, logs.path());
  INFO(r.out);
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.find("4 files x 64 MiB") != std::string::npos);
  static const std::regex row(R"(\n +(\d+) KiB +([0-9.]+) +([0-9.]+) +([0-9.]+) +([0-9.]+) )");
  std::vector<long long> sizes;
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), row), end; it != end; ++it) {
    sizes.push_back(std::stoll((*it)[1]));
    CHECK(std::stod((*it)[2]) > 0);
    CHECK(std::stod((*it)[3]) > 0);
  }
  CHECK(sizes == std::vector<long long>{64, 128, 256, 512, 1024, 2048});
  CHECK(r.out.find("Read size for this disk: ") != std::string::npos);
  CHECK(r.out.find("Stream starts under load (Spindle's disk thread, cold files): ") != std::string::npos);
  CHECK(r.out.find("Preload for this disk: ") != std::string::npos);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("spindle-diskbench --starts-only --save keeps the preload it measured as the setting") {
  TempDir logs("diskbench-save");
  TempDir dir("diskbench-save-dir");
  TempDir config("diskbench-save-config");
  ::setenv("XDG_CONFIG_HOME", config.path().c_str(), 1);  // the child's settings file
  const RunResult r = runTool({SPINDLE_DISKBENCH_EXE, "--quick", "--starts-only", "--save", dir.path().string()}, logs.path());
  ::unsetenv("XDG_CONFIG_HOME");
  INFO(r.out);
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.find("64 KiB") == std::string::npos);  // no read-size passes
  static const std::regex preload(R"(Preload for this disk: (\d+) frames per sample)");
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, preload));
  const long long frames = std::stoll(m[1]);
  CHECK(frames >= 2048);
  CHECK(frames % 1024 == 0);
  const auto file = config.path() / "spindle" / "spindle.conf";
  CHECK(r.out.find("Saved: preload " + std::to_string(frames) + " frames in " + file.string()) != std::string::npos);
  CHECK(spindle::control::readSetting(file, "engine", "preloadFrames") == frames);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("the tools answer --help and --version, and reject unknown arguments") {
  TempDir logs("tools-help");
  for (const char* exe : {SPINDLE_DOCTOR_EXE, SPINDLE_LATENCY_EXE, SPINDLE_DISKBENCH_EXE}) {
    const std::string name = std::filesystem::path(exe).filename().string();
    const RunResult help = runTool({exe, "--help"}, logs.path());
    CHECK(help.exitCode == 0);
    CHECK(help.out.find("Usage: " + name) == 0);
    const RunResult version = runTool({exe, "--version"}, logs.path());
    CHECK(version.out.find(name + " (Spindle) ") == 0);
    CHECK(runTool({exe, "--no-such-option"}, logs.path()).exitCode == 2);
  }
}

TEST_CASE("spindle-doctor --json on this machine prints twelve checks") {
  TempDir logs("doctor-cli");
  const RunResult r = runTool({SPINDLE_DOCTOR_EXE, "--json"}, logs.path());
  REQUIRE(r.exitCode == 0);
  size_t statuses = 0;
  for (size_t pos = r.out.find("\"status\": \""); pos != std::string::npos; pos = r.out.find("\"status\": \"", pos + 1)) {
    ++statuses;
  }
  CHECK(statuses == 12);
}

}  // namespace tool_cli_tests
