// The problem log (control/ProblemLog.h) and how OSC reports it: /spindle/problem pushed
// to subscribers once each, /spindle/problems on request (a count, then the last 64),
// `problems` in /spindle/status. Plus the log under several producer threads.
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "RecordingTarget.h"
#include "catch.h"

namespace problem_tests {

using namespace spindle::control;
using spindle::test::loopbackPeer;
using spindle::test::RecordingSink;
using spindle::test::RecordingTarget;

namespace {

OscMessage msg(std::string path, std::vector<OscValue> args = {}) { return {std::move(path), std::move(args)}; }

std::vector<OscMessage> messagesTo(const std::vector<RecordingSink::Sent>& sent, const Peer& to, const std::string& path) {
  std::vector<OscMessage> out;
  for (const auto& s : sent)
    if (s.to == to && s.message.path == path) out.push_back(s.message);
  return out;
}

}  // namespace

TEST_CASE("the problem log numbers problems and keeps the newest 64", "[control]") {
  ProblemLog log;
  CHECK(log.total() == 0);
  CHECK(log.since(0).empty());
  CHECK(log.add(ProblemKind::Disk, "/s/a.wav", "cannot read sample file /s/a.wav") == 1);
  CHECK(log.add(ProblemKind::Load, "/s/b.wav", "sample file /s/b.wav not loaded") == 2);
  REQUIRE(log.since(1).size() == 1);
  CHECK(log.since(1)[0].serial == 2);
  CHECK(log.since(1)[0].kind == ProblemKind::Load);
  CHECK(log.since(1)[0].file == "/s/b.wav");
  CHECK(log.since(2).empty());
  CHECK(std::string(wireName(ProblemKind::Disk)) == "disk");
  CHECK(std::string(wireName(ProblemKind::Load)) == "load");
  CHECK(std::string(wireName(ProblemKind::Server)) == "server");

  for (int k = 0; k < 100; ++k) log.add(ProblemKind::Disk, "/s/c.wav", "problem " + std::to_string(k + 3));
  CHECK(log.total() == 102);
  const auto kept = log.since(0);
  REQUIRE(kept.size() == ProblemLog::kKept);
  CHECK(kept.front().serial == 102 - ProblemLog::kKept + 1);
  CHECK(kept.back().serial == 102);
  CHECK(kept.back().message == "problem 102");
  CHECK(log.since(100).size() == 2);
}

TEST_CASE("the problem log under four producers: serials dense, each producer's order kept", "[control][stress]") {
  constexpr int kProducers = 4, kEach = 5000;
  ProblemLog log;
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&log, p] {
      for (int k = 0; k < kEach; ++k) log.add(ProblemKind::Disk, std::to_string(p), std::to_string(k));
    });
  // The consumer: what a subscriber push loop does, while the producers run.
  uint64_t seen = 0, lastTotal = 0;
  std::vector<int> lastOf(kProducers, -1);
  bool ordered = true, fresh = true;
  while (seen < uint64_t{kProducers} * kEach) {
    const uint64_t total = log.total();
    fresh = fresh && total >= lastTotal;
    lastTotal = total;
    for (const LoggedProblem& p : log.since(seen)) {
      ordered = ordered && p.serial > seen;
      const auto producer = static_cast<std::size_t>(std::stoi(p.file));
      const int k = std::stoi(p.message);
      ordered = ordered && k > lastOf[producer];  // a producer's problems never swap places
      lastOf[producer] = k;
      seen = p.serial;
    }
    fresh = fresh && log.total() >= seen;  // since() never shows a serial total() has not reached
  }
  for (auto& t : producers) t.join();
  CHECK(ordered);
  CHECK(fresh);
  CHECK(log.total() == uint64_t{kProducers} * kEach);
  const auto kept = log.since(0);
  REQUIRE(kept.size() == ProblemLog::kKept);
  for (std::size_t k = 1; k < kept.size(); ++k) CHECK(kept[k].serial == kept[k - 1].serial + 1);
  CHECK(kept.back().message == std::to_string(kEach - 1));  // the last problem: some producer's last
}

TEST_CASE("problems are pushed to every subscriber once, and listed on request", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  const Peer subscriber = loopbackPeer(43001), other = loopbackPeer(43002), bystander = loopbackPeer(43003);
  core.handle(subscriber, msg("/spindle/subscribe", {OscValue::f(0.1)}));
  core.handle(other, msg("/spindle/subscribe", {OscValue::f(0.1)}));
  const auto start = ControlCore::Clock::now();
  core.tick(start);
  sink.take();

  target.problemLog.add(ProblemKind::Disk, "/lib/a.wav",
                        "cannot read sample file /lib/a.wav at frame 9000: Input/output error");
  target.problemLog.add(ProblemKind::Load, "/lib/b.wav", "sample file /lib/b.wav not loaded: it needs 1 MiB");
  core.tick(start + std::chrono::milliseconds(10));  // long before the next status push
  const auto pushed = sink.take();
  for (const Peer& to : {subscriber, other}) {
    const auto problems = messagesTo(pushed, to, "/spindle/problem");
    REQUIRE(problems.size() == 2);
    CHECK(describe(problems[0]) ==
          "/spindle/problem hsss 1 \"disk\" \"/lib/a.wav\" \"cannot read sample file /lib/a.wav at frame 9000: "
          "Input/output error\"");
    CHECK(problems[1].args[0].integer == 2);
    CHECK(problems[1].args[1].text == "load");
    CHECK(problems[1].args[2].text == "/lib/b.wav");
  }
  CHECK(messagesTo(pushed, bystander, "/spindle/problem").empty());
  core.tick(start + std::chrono::milliseconds(20));
  CHECK(messagesTo(sink.take(), subscriber, "/spindle/problem").empty());  // once each

  core.handle(bystander, msg("/spindle/problems"));
  const auto listed = sink.take();
  REQUIRE(listed.size() == 3);
  CHECK(describe(listed[0].message) == "/spindle/problems hi 2 2");
  CHECK(listed[1].message.args[2].text == "/lib/a.wav");
  CHECK(listed[2].message.args[2].text == "/lib/b.wav");
  for (const auto& r : listed) CHECK(r.to == bystander);

  core.handle(bystander, msg("/spindle/status"));
  const auto status = sink.take();
  REQUIRE(status.size() == 1);
  const auto& args = status[0].message.args;
  REQUIRE(args.size() >= 2);
  CHECK(args[args.size() - 2].text == "problems");
  CHECK(args.back().type == 'h');
  CHECK(args.back().integer == 2);
}

TEST_CASE("/spindle/problems lists the last 64 and counts them all", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  for (int k = 1; k <= 70; ++k) target.problemLog.add(ProblemKind::Disk, "/lib/x.wav", "problem " + std::to_string(k));
  core.handle(loopbackPeer(), msg("/spindle/problems"));
  const auto replies = sink.take();
  REQUIRE(replies.size() == 1 + ProblemLog::kKept);
  CHECK(describe(replies[0].message) == "/spindle/problems hi 70 64");
  CHECK(replies[1].message.args[0].integer == 7);
  CHECK(replies[1].message.args[3].text == "problem 7");
  CHECK(replies.back().message.args[0].integer == 70);
  std::set<int64_t> serials;
  for (std::size_t k = 1; k < replies.size(); ++k) serials.insert(replies[k].message.args[0].integer);
  CHECK(serials.size() == ProblemLog::kKept);
}

}  // namespace problem_tests
