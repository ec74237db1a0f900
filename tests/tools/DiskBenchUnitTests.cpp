// Disk benchmark: the seed's arithmetic, the recommendation, a small real run.
#include "ToolTestSupport.h"
#include "catch.h"
#include "tools/DiskBench.h"
#include "tools/DiskBenchReport.h"
#include "tools/StreamStart.h"

namespace disk_bench_unit_tests {

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

TEST_CASE("stream starts: the preload covers the slowest start and a period, twice, in whole KiB of frames") {
  CHECK(preloadForStart(0.0) == 2048);       // never below 2048
  CHECK(preloadForStart(20.0) == 3072);      // 2 x (960 + 256) = 2432 frames
  CHECK(preloadForStart(100.0) == 10240);    // 2 x (4800 + 256) = 10112 frames
}

TEST_CASE("stream starts: a small run measures every start through the disk thread, then removes its files") {
  spindle::test::TempDir dir("streamstart-unit");
  StreamStartOptions options;
  options.dir = dir.path();
  options.files = 4;
  options.fileSeconds = 3.0;
  options.background = 4;
  options.burst = 4;
  options.burstPeriods = 10;
  options.seconds = 1.0;
  std::vector<std::string> phases;
  const StreamStartResult r = runStreamStart(options, [&](const std::string& line) { phases.push_back(line); });
  REQUIRE(r.error.empty());
  CHECK(phases.size() == 2);
  CHECK(r.startsMs.size() >= 4 * 15);  // a burst every 10 periods of 5.3 ms, for a second
  CHECK(std::is_sorted(r.startsMs.begin(), r.startsMs.end()));
  CHECK(r.startsMs.front() >= 0.0);
  CHECK(r.medianMs <= r.p99Ms);
  CHECK(r.p99Ms <= r.worstMs);
  CHECK(r.preloadFrames == preloadForStart(r.worstMs));
  CHECK(std::filesystem::is_empty(dir.path()));
}

}  // namespace disk_bench_unit_tests
