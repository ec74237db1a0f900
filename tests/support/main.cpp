// The one main() of every test executable, for Catch2 v2 and v3 alike. It exits 77
// (ctest's "Skipped") when a case skipped for want of fixtures and none failed
// (FixturePaths.h).
#include "FixturePaths.h"

#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_session.hpp>
constexpr int kAllTestsSkipped = 4;  // Catch2 v3's exit code when every case skipped
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
constexpr int kAllTestsSkipped = 0;  // v2 has no skip: a case that skipped passed
#endif

int main(int argc, char** argv) {
  const int result = Catch::Session().run(argc, argv);
  return spindle::test::exitCodeForCtest(result, kAllTestsSkipped);
}
