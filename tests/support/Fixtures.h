#pragma once
// Where the third-party test data lives: $SPINDLE_FIXTURES, else the path CMake was
// given (SPINDLE_FIXTURES, default ../shared/fixtures). Never the working directory.
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "catch.h"

namespace spindle::test {

inline std::optional<std::filesystem::path> fixturesDir() {
  const char* env = std::getenv("SPINDLE_FIXTURES");
  std::filesystem::path dir = env && *env ? std::filesystem::path(env) : std::filesystem::path(SPINDLE_FIXTURES_DIR);
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return std::filesystem::canonical(dir, ec);
}

}  // namespace spindle::test

// Declares `name` as the fixtures path, or skips the test with a message when absent.
#define SPINDLE_FIXTURES_OR_SKIP(name)                                                   \
  const auto name##Opt = ::spindle::test::fixturesDir();                                 \
  if (!name##Opt) {                                                                      \
    WARN("skipped: fixtures not found (set SPINDLE_FIXTURES or -DSPINDLE_FIXTURES=...)"); \
    return;                                                                              \
  }                                                                                      \
  const std::filesystem::path name = *name##Opt
