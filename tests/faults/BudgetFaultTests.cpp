// A library whose samples exceed the memory budget: a degraded load, never an
// out-of-memory kill. The samples that fit load; each one refused is named in the load
// report (what the log, the GUI and OSC show for a load), and the instrument still
// plays its other regions. Over OSC: /spindle/load/done counts it and /spindle/problem
// names it (the real session Control and loader thread behind the real ControlCore).
#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/ControlCore.h"
#include "control/ProblemLog.h"
#include "engine/Engine.h"
#include "io/LiveProcessor.h"
#include "session/Control.h"
#include "session/Loader.h"
#include "stream/StreamTestSupport.h"

namespace budget_fault_tests {

using spindle::session::Loader;
using spindle::stream::PoolOptions;

namespace {

// a.wav, b.wav, c.wav: 400 KB each whole in RAM (16-bit stereo, 100000 frames, kept
// 16-bit); keys 60, 62, 64.
std::filesystem::path writeBigLibrary(const std::string& name) {
  const auto dir = spindle::test::scratchDir(name);
  for (const char* file : {"a.wav", "b.wav", "c.wav"}) spindle::test::writeTestWav(dir / file, 2, 100000);
  std::ofstream(dir / "big.sfz") << "<region> key=60 sample=a.wav\n<region> key=62 sample=b.wav\n"
                                    "<region> key=64 sample=c.wav\n";
  return dir;
}

}  // namespace

TEST_CASE("an instrument over the memory budget loads degraded and names what it left out", "[faults]") {
  const auto dir = writeBigLibrary("fault-budget");
  // Whole files (no preload): 400 KB each; the budget holds two.
  Loader whole(PoolOptions{-1, 0, 1u << 20});
  const auto result = whole.load(dir / "big.sfz");
  REQUIRE(result.report.ok);
  REQUIRE(result.program);
  CHECK(result.report.samplesLoaded == 2);
  REQUIRE(result.report.sampleErrors.size() == 1);
  CHECK(result.report.sampleErrors[0].file == (dir / "c.wav").string());
  const std::string& error = result.report.sampleErrors[0].message;
  CHECK(error.find((dir / "c.wav").string()) != std::string::npos);
  CHECK(error.find("memory budget of 1 MiB") != std::string::npos);
  CHECK(whole.pool().bytesInRam() <= (1u << 20));

  // Streamed with a preload, the same library fits in the same budget.
  Loader streamed(PoolOptions{8192, 4096, 1u << 20});
  const auto fits = streamed.load(dir / "big.sfz");
  CHECK(fits.report.samplesLoaded == 3);
  CHECK(fits.report.sampleErrors.empty());
}

TEST_CASE("an OSC load over the memory budget: load/done counts the sample left out, /spindle/problem names it",
          "[faults]") {
  using namespace spindle;
  const auto dir = writeBigLibrary("fault-budget-osc");
  const std::string leftOut = (dir / "c.wav").string();
  engine::Engine engine(engine::EngineConfig{48000.0, 256, 16, engine::Quality::Hermite, 1, nullptr});
  io::LiveProcessor live(engine);
  control::ProblemLog problems;
  session::Library library(PoolOptions{-1, 0, 1u << 20});
  session::Control target(engine, live, 2, library, problems);
  test::RecordingSink sink;
  control::ControlCore core(target, sink);
  const control::Peer client = test::loopbackPeer(44001), subscriber = test::loopbackPeer(44002);
  core.handle(subscriber, {"/spindle/subscribe", {control::OscValue::f(0.1)}});
  core.handle(client, {"/spindle/load", {control::OscValue::i(3), control::OscValue::s((dir / "big.sfz").string())}});

  // The loader thread loads; the control thread's ticks deliver its events.
  std::vector<test::RecordingSink::Sent> sent;
  auto has = [&sent](const control::Peer& to, const std::string& path) {
    return std::any_of(sent.begin(), sent.end(), [&](const auto& s) { return s.to == to && s.message.path == path; });
  };
  for (int k = 0; k < 1000 && !(has(client, "/spindle/load/done") && has(subscriber, "/spindle/problem")); ++k) {
    core.tick(control::ControlCore::Clock::now());
    for (auto& s : sink.take()) sent.push_back(std::move(s));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::vector<std::string> toClient, toSubscriber;
  for (const auto& s : sent)
    if (s.message.path != "/spindle/status") (s.to == client ? toClient : toSubscriber).push_back(describe(s.message));
  REQUIRE(toClient.size() == 2);
  CHECK(toClient[0] == "/spindle/load/progress if 3 0.000000");
  CHECK(toClient[1] == "/spindle/load/done isii 3 \"big\" 3 1");
  REQUIRE(toSubscriber.size() == 1);
  CHECK(toSubscriber[0].rfind("/spindle/problem hsss 1 \"load\" \"" + leftOut + "\" \"sample file " + leftOut +
                                  " not loaded: it needs 1 MiB in RAM and the memory budget of 1 MiB",
                              0) == 0);

  core.handle(client, {"/spindle/problems", {}});
  const auto listed = sink.take();
  REQUIRE(listed.size() == 2);
  CHECK(describe(listed[0].message) == "/spindle/problems hi 1 1");
  CHECK(listed[1].message.args[2].text == leftOut);
  CHECK(problems.total() == 1);
}

}  // namespace budget_fault_tests
