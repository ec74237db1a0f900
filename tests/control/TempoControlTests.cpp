// The set tempo through the control side: OSC sets it and reads back the tempo playing
// and its source, the session file keeps it, and a bad value names the reason.
#include <unistd.h>

#include <filesystem>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/ControlCore.h"
#include "control/SessionFile.h"

namespace tempo_control_tests {

using namespace spindle;
using namespace spindle::control;
using spindle::test::loopbackPeer;
using spindle::test::RecordingSink;
using spindle::test::RecordingTarget;

namespace {

OscMessage msg(std::string path, std::vector<OscValue> args = {}) { return {std::move(path), std::move(args)}; }

}  // namespace

TEST_CASE("OSC sets the tempo and reads back the tempo playing, its source and the set tempo", "[control][tempo]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  core.handle(loopbackPeer(), msg("/spindle/tempo", {OscValue::f(96.5)}));
  CHECK(sink.take().empty());
  REQUIRE(target.calls.size() == 1);
  CHECK(target.calls[0] == "tempo 96.500000");
  CHECK(target.state.settings.tempo == 96.5f);
  target.tempoNow = {131.25f, "clock"};  // MIDI clocks outrank the set tempo
  core.handle(loopbackPeer(), msg("/spindle/tempo/get"));
  const auto replies = sink.take();
  REQUIRE(replies.size() == 1);
  const OscMessage& m = replies[0].message;
  CHECK(m.path == "/spindle/tempo");
  REQUIRE(m.typespec() == "fsf");
  CHECK(m.args[0].number() == Approx(131.25));
  CHECK(m.args[1].text == "clock");
  CHECK(m.args[2].number() == Approx(96.5));
  core.handle(loopbackPeer(), msg("/spindle/tempo", {OscValue::f(0.5)}));
  const auto error = sink.take();
  REQUIRE(error.size() == 1);
  CHECK(error[0].message.path == "/spindle/error");
  CHECK(error[0].message.args[1].text.find("must be 1..999, got 0.5") != std::string::npos);
  CHECK(target.calls.size() == 1);  // nothing reached the target
}

TEST_CASE("a session keeps the set tempo; without one it leaves the tempo alone", "[control][session][tempo]") {
  SessionState state;
  state.settings.tempo = 87.5f;
  CHECK_THAT(formatSession(state), Catch::Contains("quality = 1\ntempo = 87.5\n"));
  CHECK_THAT(formatSession(SessionState{}), !Catch::Contains("tempo"));
  const auto file = std::filesystem::temp_directory_path() / ("spindle-tempo-" + std::to_string(::getpid()) + ".spindle");
  std::string error;
  REQUIRE(writeSessionFile(file, state, error));
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  REQUIRE(core.loadSession(file.string(), loopbackPeer(), nullptr, error));
  CHECK(target.state.settings.tempo == 87.5f);
  std::filesystem::remove(file);
  RecordingTarget untouched;
  ControlCore plain(untouched, sink);
  REQUIRE(writeSessionFile(file, SessionState{}, error));
  REQUIRE(plain.loadSession(file.string(), loopbackPeer(), nullptr, error));
  std::filesystem::remove(file);
  for (const std::string& call : untouched.calls) CHECK(call.rfind("tempo", 0) == std::string::npos);
  CHECK_FALSE(parseSession("[settings]\ntempo = 0\n", "/tmp/s.spindle", error));
  CHECK(error == "/tmp/s.spindle:2: bad value '0' for tempo");
}

}  // namespace tempo_control_tests
