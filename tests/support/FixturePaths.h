#pragma once
// Where the third-party test data (the fixtures) lives, and what a test does when it is
// missing; no test framework here (Fixtures.h wraps it for Catch2, tests/gui for Qt Test).
//
// The folder is $SPINDLE_FIXTURES, read when the test runs, else the path CMake was given
// (the cache variable SPINDLE_FIXTURES, default ../shared/fixtures); never the working
// directory. A test that finds the folder, or a path it needs under it, missing:
//   - skips, and counts the skip (countSkip()): the test executable then exits 77,
//     which ctest reports as "Skipped" (SKIP_RETURN_CODE 77), and prints
//     "SKIPPED: <case>: <why>", the line tests/run.sh lists and checks against
//     tests/ci-skips.txt;
//   - fails instead, naming the missing path, when SPINDLE_REQUIRE_FIXTURES=1: tests/run.sh
//     sets it when the fixtures are there, so a CI run never passes by skipping.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <system_error>

namespace spindle::test {

struct FixtureCheck {
  std::filesystem::path dir;  // the fixtures folder (canonical when it exists)
  std::string missing;        // empty when every path is there, else what is missing
  bool required = false;      // SPINDLE_REQUIRE_FIXTURES=1: a missing path is a failure

  bool found() const { return missing.empty(); }
  // Why the test leaves: what is missing, after "SPINDLE_REQUIRE_FIXTURES=1 but " if required.
  std::string message() const;
};

// Finds the fixtures folder and checks that each of `paths` (relative to it: files or
// folders the test reads) exists.
FixtureCheck checkFixtures(std::initializer_list<const char*> paths);

// Records that the case `name` of this executable skipped, or left part of what it checks
// unchecked, for `why`: prints "SKIPPED: name: why" on stdout and counts it.
void countSkip(const std::string& name, const std::string& why);
// Skips this executable counted (the exit code's source).
int skipsCounted();

// The exit code for ctest: 77 (skipped) when a case skipped and none failed (`result` 0,
// or `allSkipped`, the framework's "every test skipped" code), else `result`.
int exitCodeForCtest(int result, int allSkipped);

// ---------------------------------------------------------------------------------------

inline FixtureCheck checkFixtures(std::initializer_list<const char*> paths) {
  FixtureCheck check;
  const char* env = std::getenv("SPINDLE_FIXTURES");
  const bool fromEnv = env && *env;
  check.dir = fromEnv ? std::filesystem::path(env) : std::filesystem::path(SPINDLE_FIXTURES_DIR);
  const char* require = std::getenv("SPINDLE_REQUIRE_FIXTURES");
  check.required = require && std::string(require) == "1";
  std::error_code ec;
  if (!std::filesystem::is_directory(check.dir, ec)) {
    check.missing = "no fixtures folder " + check.dir.string() +
                    (fromEnv ? " ($SPINDLE_FIXTURES)" : " (CMake's SPINDLE_FIXTURES; set $SPINDLE_FIXTURES)");
    return check;
  }
  check.dir = std::filesystem::canonical(check.dir, ec);
  for (const char* path : paths) {
    if (!std::filesystem::exists(check.dir / path, ec)) {
      check.missing = "no " + (check.dir / path).string() + " in the fixtures";
      return check;
    }
  }
  return check;
}

inline std::string FixtureCheck::message() const {
  return required ? "SPINDLE_REQUIRE_FIXTURES=1 but " + missing : missing;
}

namespace detail {
inline int& skips() {
  static int count = 0;
  return count;
}
}  // namespace detail

inline void countSkip(const std::string& name, const std::string& why) {
  ++detail::skips();
  std::printf("SKIPPED: %s: %s\n", name.c_str(), why.c_str());
  std::fflush(stdout);
}

inline int skipsCounted() { return detail::skips(); }

inline int exitCodeForCtest(int result, int allSkipped) {
  constexpr int kSkipped = 77;
  return skipsCounted() > 0 && (result == 0 || result == allSkipped) ? kSkipped : result;
}

}  // namespace spindle::test
