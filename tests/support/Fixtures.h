#pragma once
// Catch2 test cases that read the fixtures (FixturePaths.h: where they are, what a test
// does without them):
//
//   TEST_CASE("TimGM6mb.sf2 reads ...", "[sf2][fixtures]") {
//     SPINDLE_FIXTURES_OR_SKIP(fixtures, "sf2/TimGM6mb.sf2");
//     const auto r = sf2::readSoundFont(fixtures / "sf2" / "TimGM6mb.sf2");
//
// declares `fixtures`, the folder, or leaves the case when the folder or a named path
// under it is missing: skipped (counted, Skip.h: the executable then exits 77), or failed
// under SPINDLE_REQUIRE_FIXTURES=1.
//
// So that a missing folder skips only the cases that need it, ctest runs such an
// executable twice: "~[fixtures]" as NAME, "[fixtures]" as NAME_fixtures
// (spindle_add_test(... FIXTURES), tests/CMakeLists.txt). Two checks keep that honest:
// the case must carry the tag [fixtures] (checked when it runs), and the executable must
// be registered with FIXTURES (checked when it compiles).
#include <algorithm>

#include "FixturePaths.h"
#include "Skip.h"
#include "catch.h"

namespace spindle::test {

#ifdef SPINDLE_TEST_FIXTURE_ENTRIES
inline constexpr bool kFixtureEntries = true;
#else
inline constexpr bool kFixtureEntries = false;
#endif

// Whether the running test case is tagged [fixtures].
bool runningCaseTaggedFixtures();

// ---------------------------------------------------------------------------------------

inline bool runningCaseTaggedFixtures() {
  const std::string name = Catch::getResultCapture().getCurrentTestName();
  for (const auto& test : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
#if __has_include(<catch2/catch_all.hpp>)
    const Catch::TestCaseInfo& info = test.getTestCaseInfo();
    if (info.name != name) continue;
    return std::any_of(info.tags.begin(), info.tags.end(),
                       [](const Catch::Tag& tag) { return tag.original == Catch::StringRef("fixtures"); });
#else
    if (test.name != name) continue;
    return std::find(test.lcaseTags.begin(), test.lcaseTags.end(), "fixtures") != test.lcaseTags.end();
#endif
  }
  return false;
}

}  // namespace spindle::test

// Declares `name` as the fixtures folder; the rest of the arguments are paths under it
// that the case reads (none: the folder alone).
#define SPINDLE_FIXTURES_OR_SKIP(name, ...)                                                         \
  static_assert(::spindle::test::kFixtureEntries,                                                   \
                "this executable reads fixtures: register it with spindle_add_test(... FIXTURES)"); \
  if (!::spindle::test::runningCaseTaggedFixtures()) {                                              \
    FAIL("this case reads fixtures: tag it [fixtures] (support/Fixtures.h)");                       \
  }                                                                                                 \
  const ::spindle::test::FixtureCheck name##Check = ::spindle::test::checkFixtures({__VA_ARGS__});  \
  if (!name##Check.found()) {                                                                       \
    if (name##Check.required) FAIL(name##Check.message());                                          \
    SPINDLE_SKIP_CASE(name##Check.message());                                                       \
  }                                                                                                 \
  const std::filesystem::path& name = name##Check.dir
