#pragma once
// Skips in Catch2 cases, counted (Catch2 v2 has no SKIP: a case that returned early would
// pass). A skip prints "SKIPPED: <case>: <why>" and makes the executable exit 77, ctest's
// "Skipped" (FixturePaths.h); tests/run.sh lists every such line and, under CI=true,
// fails on any that tests/ci-skips.txt does not expect.
//
//   if (!rtGuardCounting()) SPINDLE_SKIP_CASE(rtGuardMode());   // leaves the case
//   SPINDLE_COUNT_SKIP(program << ": loading checked only");    // one part unchecked; goes on
#include <sstream>
#include <string>

#include "FixturePaths.h"
#include "catch.h"

#define SPINDLE_COUNT_SKIP(message)                                                              \
  do {                                                                                           \
    std::ostringstream spindleSkipWhy;                                                           \
    spindleSkipWhy << message;                                                                   \
    ::spindle::test::countSkip(Catch::getResultCapture().getCurrentTestName(), spindleSkipWhy.str()); \
    WARN("skipped: " << spindleSkipWhy.str());                                                   \
  } while (false)

#define SPINDLE_SKIP_CASE(message) \
  do {                             \
    SPINDLE_COUNT_SKIP(message);   \
    return;                        \
  } while (false)
