// Disk benchmark: the seed's arithmetic, the recommendation, a small real run.
#include "ToolTestSupport.h"
#include "catch.h"
#include "tools/DiskBench.h"
#include "tools/DiskBenchReport.h"

using namespace spindle::tools;

TEST_CASE("diskbench: voices and memory reproduce the 2004 seed's arithmetic") {
  CHECK(voicesAt(8.50, kBytesPerSecond44k16) == Approx(50.53).epsilon(1e-3));
  CHECK(voicesAt(28.49, kBytesPerSecond44k16) == Approx(169.35).epsilon(1e-3));
  // The seed printed voices x read size (6.32 MB at 128 KiB); Spindle double-buffers.
  CHECK(memoryMiB(50.53, 128u << 10) == Approx(2 * 6.32).epsilon(1e-3));
  CHECK(voicesAt(28.49, kBytesPerSecond48k24) == Approx(103.73).epsilon(1e-3));
}

TEST_CASE("diskbench: recommends the size after which doubling gains under 20%") {
  DiskBenchResult seed;  // the seed's Maxtor numbers, 128 KiB to 2 MiB
  const double mibs[] = {8.50, 14.43, 21.10, 28.49, 32.88};
  const double worstMs[] = {40, 45, 60, 95, 160};
  for (int i = 0; i < 5; ++i) {
    ReadSizeResult r;
    r.readSize = (128u << 10) << i;
    r.mibPerSecond = mibs[i];
    r.worstReadMs = worstMs[i];
    seed.sizes.push_back(r);
  }
  const DiskRecommendation rec = recommend(seed);
  CHECK(rec.readSize == (1u << 20));
  CHECK(rec.worstReadMs == 95);
  CHECK(rec.preloadFrames == 8192);  // 95 ms at 48 kHz = 4560 frames; never below 8192
  seed.sizes[3].worstReadMs = 400;   // 19,200 frames
  CHECK(recommend(seed).preloadFrames == 32768);
  seed.sizes[4].mibPerSecond = 50;   // still gaining: take the largest
  CHECK(recommend(seed).readSize == (2u << 20));
}

TEST_CASE("diskbench: a small run reads every size, then removes its files") {
  spindle::test::TempDir dir("diskbench-unit");
  DiskBenchOptions options;
  options.dir = dir.path();
  options.files = 2;
  options.fileBytes = 8ull << 20;
  options.secondsPerSize = 2;
  options.seeks = 50;
  std::vector<std::string> phases;
  const DiskBenchResult r = runDiskBench(options, [&](const std::string& line) { phases.push_back(line); });
  REQUIRE(r.error.empty());
  REQUIRE(r.sizes.size() == 6);
  CHECK(phases.size() == 8);
  for (const ReadSizeResult& s : r.sizes) {
    CHECK(s.mibPerSecond > 0);
    CHECK(s.bytes == 16ull << 20);  // each file read through exactly once
    CHECK(s.worstReadMs >= s.meanReadMs * 0.5);
  }
  CHECK(r.seeksPerSecond > 0);
  CHECK(r.writeMiBPerSecond > 0);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("diskbench: a missing folder is an error, not a crash") {
  DiskBenchOptions options;
  options.dir = "/nonexistent/spindle-diskbench";
  const DiskBenchResult r = runDiskBench(options);
  CHECK(r.error.find("cannot create a work folder in /nonexistent/spindle-diskbench") == 0);
}
