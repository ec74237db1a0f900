// The live probe's verdict (ProbeCheck.h) on records made by hand: what it excuses, and
// that every excuse can fail.
#include <cstdint>
#include <vector>

#include "ProbeCheck.h"
#include "catch.h"

namespace probe_check_tests {

using spindle::live::check;
using spindle::live::LoggedNote;
using spindle::live::ProbeRecord;
using spindle::live::SentNote;
using spindle::live::Verdict;
using spindle::live::XrunMark;

namespace {

constexpr uint32_t kPeriod = 256;
constexpr uint64_t kStart = 100 * kPeriod;

// Notes 0..count-1, one every other cycle from kStart, 10 frames into their cycle.
SentNote sentNote(int k) {
  SentNote s;
  s.cycleStart = kStart + 2ULL * kPeriod * static_cast<uint64_t>(k);
  s.frame = s.cycleStart + 10;
  s.period = kPeriod;
  s.key = 36 + k;
  s.velocity = 1;
  return s;
}

LoggedNote loggedAt(const SentNote& s, uint64_t event, bool afterXrun = false) {
  LoggedNote n;
  n.event = event;
  n.total = 64;
  n.key = s.key;
  n.velocity = s.velocity;
  n.afterXrun = afterXrun;
  return n;
}

// `count` notes, every one heard and logged exactly.
struct Run {
  ProbeRecord record;
  std::vector<LoggedNote> log;
  explicit Run(int count) {
    for (int k = 0; k < count; ++k) {
      record.sent.push_back(sentNote(k));
      record.mainOnsets.push_back(record.sent.back().frame);
      log.push_back(loggedAt(record.sent.back(), record.sent.back().frame));
    }
  }
  // Note k played one period late: logged there and heard there.
  void late(int k, bool afterXrun) {
    const SentNote& s = record.sent[static_cast<std::size_t>(k)];
    log[static_cast<std::size_t>(k)] = loggedAt(s, s.frame + kPeriod, afterXrun);
    record.mainOnsets[static_cast<std::size_t>(k)] = s.frame + kPeriod;
  }
  void lose(int k) {
    log.erase(log.begin() + k);
    record.mainOnsets.erase(record.mainOnsets.begin() + k);
  }
  void mark(uint64_t frame, bool resize = false) { record.xruns.push_back(XrunMark{frame, kPeriod, resize}); }
  Verdict verdict() const { return check(record, log); }
};

}  // namespace

TEST_CASE("every note exact passes", "[probe]") {
  const Verdict v = Run(20).verdict();
  CHECK(v.passed());
  CHECK(v.exact == 20);
  CHECK(v.breaks == 0);
}

TEST_CASE("a note played late is excused only next to a break", "[probe]") {
  Run run(20);
  run.late(5, false);
  CHECK_FALSE(run.verdict().passed());
  CHECK(run.verdict().displaced == 1);

  run.late(5, true);  // Spindle's own clock broke just before the cycle it played in
  CHECK(run.verdict().passed());
  CHECK(run.verdict().excused == 1);
  CHECK(run.verdict().breaks == 1);

  run.late(5, false);
  run.mark(run.record.sent[5].cycleStart + kPeriod);  // the probe saw the next cycle break
  CHECK(run.verdict().passed());
}

TEST_CASE("a quantum change excuses nothing", "[probe]") {
  Run run(20);
  run.late(5, false);
  run.mark(run.record.sent[5].cycleStart, true);
  run.mark(run.record.sent[5].cycleStart + kPeriod, true);
  CHECK_FALSE(run.verdict().passed());
  CHECK(run.verdict().displaced == 1);
}

TEST_CASE("a lost note voids the run only next to a break", "[probe]") {
  Run run(20);
  run.lose(7);
  CHECK_FALSE(run.verdict().passed());
  CHECK_FALSE(run.verdict().voidRun());

  run.mark(sentNote(7).cycleStart);
  CHECK(run.verdict().voidRun());
  CHECK(run.verdict().lostNearXrun == 1);
}

TEST_CASE("a break excuses no more notes than it can explain", "[probe]") {
  Run run(20);
  const uint64_t at = sentNote(6).cycleStart + kPeriod;  // the windows of notes 5, 6 and 7 hold it
  run.mark(at);
  run.late(6, false);
  run.late(7, false);
  CHECK(run.verdict().passed());  // two notes: its bound
  run.late(5, false);
  CHECK_FALSE(run.verdict().passed());
  CHECK(run.verdict().overBound == 1);

  run.mark(at + 2 * kPeriod);  // the break lasted two periods longer: one note more
  CHECK(run.verdict().passed());
}

TEST_CASE("a note logged twice fails unless the probe's library re-sent it a period on", "[probe]") {
  Run run(20);
  run.log.push_back(loggedAt(run.record.sent[3], run.record.sent[3].frame + kPeriod));
  CHECK(run.verdict().passed());
  CHECK(run.verdict().resent == 1);

  run.log.back().event += 1;
  CHECK_FALSE(run.verdict().passed());
  CHECK(run.verdict().duplicates == 1);
}

}  // namespace probe_check_tests
