// A library whose samples exceed the memory budget: a degraded load, never an
// out-of-memory kill. The samples that fit load; each one refused is named in the load
// report (what the log, the GUI and OSC show for a load), and the instrument still
// plays its other regions.
#include <fstream>

#include "catch.h"
#include "app/Loader.h"
#include "stream/StreamTestSupport.h"

using spindle::app::Loader;
using spindle::stream::PoolOptions;

TEST_CASE("an instrument over the memory budget loads degraded and names what it left out", "[faults]") {
  const auto dir = spindle::test::scratchDir("fault-budget");
  for (const char* file : {"a.wav", "b.wav", "c.wav"}) spindle::test::writeTestWav(dir / file, 2, 100000);
  std::ofstream(dir / "big.sfz") << "<region> key=60 sample=a.wav\n<region> key=62 sample=b.wav\n"
                                    "<region> key=64 sample=c.wav\n";
  // Whole files (no preload): 800 KB each; the budget holds two.
  Loader whole(PoolOptions{-1, 0, 2u << 20});
  const auto result = whole.load(dir / "big.sfz");
  REQUIRE(result.report.ok);
  REQUIRE(result.program);
  CHECK(result.report.samplesLoaded == 2);
  REQUIRE(result.report.sampleErrors.size() == 1);
  const std::string& error = result.report.sampleErrors[0];
  CHECK(error.find((dir / "c.wav").string()) != std::string::npos);
  CHECK(error.find("memory budget of 2 MiB") != std::string::npos);
  CHECK(whole.pool().bytesInRam() <= (2u << 20));

  // Streamed with a preload, the same library fits in the same budget.
  Loader streamed(PoolOptions{8192, 4096, 2u << 20});
  const auto fits = streamed.load(dir / "big.sfz");
  CHECK(fits.report.samplesLoaded == 3);
  CHECK(fits.report.sampleErrors.empty());
}
