// Histogram, period table, the wakeup measurement, stress generators and the JACK probe.
#include <cstdlib>

#include "ToolTestSupport.h"
#include "catch.h"
#include "tools/Histogram.h"
#include "tools/JackTest.h"
#include "tools/PeriodTable.h"
#include "tools/Stress.h"
#include "tools/WakeupTest.h"

namespace latency_unit_tests {

using namespace spindle::tools;

TEST_CASE("histogram: count, min, max, mean, percentiles, overflow") {
  Histogram h(100);
  for (uint64_t us : {3, 5, 5, 7, 9, 250}) h.add(us);
  CHECK(h.count() == 6);
  CHECK(h.minUs() == 3);
  CHECK(h.maxUs() == 250);
  CHECK(h.overflow() == 1);
  CHECK(h.meanUs() == Approx(279.0 / 6));
  CHECK(h.percentileUs(0.5) == 5);
  CHECK(h.percentileUs(0.8) == 9);
  CHECK(h.percentileUs(1.0) == 250);
}

TEST_CASE("histogram: power-of-two bands in bpftrace's style") {
  Histogram h;
  for (uint64_t us : {0, 1, 2, 3, 6, 6, 6, 6}) h.add(us);
  const std::vector<HistogramBand> bands = h.bands();
  REQUIRE(bands.size() == 4);
  CHECK(bands[0].count == 1);
  CHECK(bands[1].count == 1);
  CHECK(bands[2].count == 2);
  CHECK((bands[3].fromUs == 4 && bands[3].toUs == 8 && bands[3].count == 4));
  const std::vector<std::string> rows = histogramRows(h, 8);
  CHECK(rows[3] == "[4, 8)                   4 |@@@@@@@@|");
  CHECK(rows[0] == "[0, 1)                   1 |@@      |");
  CHECK(Histogram().bands().empty());
}

TEST_CASE("period table: a period is safe when worst wakeup + longest callback fit in it") {
  const PeriodTable t = buildPeriodTable(2500, 400);  // needs 2.9 ms
  REQUIRE(t.rows.size() == 7);
  CHECK(t.rows.front().frames == 32);
  CHECK(t.rows.back().frames == 2048);
  CHECK(t.rows[2].ms44k == Approx(2.9025).epsilon(1e-3));
  CHECK(t.rows[2].ok44k);       // 128 frames at 44.1 kHz: 2.902 ms > 2.9 ms
  CHECK_FALSE(t.rows[2].ok48k); // 128 frames at 48 kHz: 2.667 ms
  CHECK(t.smallest44k == 128);
  CHECK(t.smallest48k == 256);
  const PeriodTable hopeless = buildPeriodTable(50000, 0);
  CHECK_FALSE(hopeless.smallest44k.has_value());
}

TEST_CASE("wakeup test: a short SCHED_FIFO run records one sample per interval") {
  WakeupOptions options;
  options.seconds = 0.3;
  options.intervalUs = 1000;
  const WakeupResult r = runWakeupTest(options);
  CHECK(r.lateness.count() + r.missedDeadlines >= 250);
  CHECK(r.lateness.count() <= 300);
  CHECK(r.lateness.maxUs() >= r.lateness.percentileUs(0.5));
  if (!r.realtime) WARN(r.note);
}

TEST_CASE("stress: parses its list, stays in its temporary folder and removes it") {
  StressOptions options;
  std::string error;
  CHECK(parseStressList("disk,cpu,proc", options, error));
  CHECK((options.disk && options.cpu && options.proc));
  CHECK_FALSE(parseStressList("disk,gpu", options, error));
  CHECK(error == "unknown stress 'gpu' (disk, cpu, proc)");
  spindle::test::TempDir parent("stress");
  options.tempParent = parent.path();
  options.diskLimitBytes = 24ull << 20;
  options.fileBytes = 8ull << 20;
  {
    StressLoad load(options);
    load.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    load.stop();
    const std::vector<std::string> summary = load.summary();
    REQUIRE(summary.size() == 3);
    CHECK(summary[0].find("disk: wrote ") == 0);
    CHECK(summary[0].find("(removed)") != std::string::npos);
    CHECK(summary[1].find("proc: read ") == 0);
    CHECK(summary[2].find(" busy threads, ") != std::string::npos);
  }
  CHECK(std::filesystem::is_empty(parent.path()));
}

TEST_CASE("jack probe: says it skipped when no server of that name runs") {
  JackOptions options;
  options.seconds = 0.1;
  options.serverName = "spindle-no-such-server-" + std::to_string(getpid());
  const JackResult r = runJackTest(options);
  CHECK_FALSE(r.ran);
  CHECK(r.note == "skipped: no JACK server '" + options.serverName + "' is running (spindle-latency never starts one)");
  CHECK(r.lateness.count() == 0);
}

}  // namespace latency_unit_tests
