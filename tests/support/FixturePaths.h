#pragma once
// Where the third-party test data (the fixtures) lives, and what a test does when it is
// missing; no test framework here (Fixtures.h wraps it for Catch2, tests/gui for Qt Test).
//
// The folder is $SPINDLE_FIXTURES, read when the test runs, else the path CMake was given
// (the cache variable SPINDLE_FIXTURES, default ../shared/fixtures); never the working
// directory. A test that finds the folder, or a path it needs under it, missing:
//   - skips, and counts the skip in fixtureSkips(): the test executable then exits 77,
//     which ctest reports as "Skipped" (SKIP_RETURN_CODE 77);
//   - fails instead, naming the missing path, when SPINDLE_REQUIRE_FIXTURES=1: tests/run.sh
//     sets it when the fixtures are there, so a CI run never passes by skipping.
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

// Tests of this executable that skipped for want of fixtures (the exit code's source).
int& fixtureSkips();

// The exit code for ctest: 77 (skipped) when a test skipped for want of fixtures and none
// failed (`result` 0, or `allSkipped`, the framework's "every test skipped" code), else `result`.
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

inline int& fixtureSkips() {
  static int skips = 0;
  return skips;
}

inline int exitCodeForCtest(int result, int allSkipped) {
  constexpr int kSkipped = 77;
  return fixtureSkips() > 0 && (result == 0 || result == allSkipped) ? kSkipped : result;
}

}  // namespace spindle::test
