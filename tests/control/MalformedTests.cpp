// The malformed-message table: each wrong message gets exactly one /spindle/error
// naming the address and the reason, the target is never called, and a good message
// afterwards still works.
#include <unistd.h>

#include <string>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/OscDispatcher.h"

namespace malformed_tests {

using namespace spindle::control;
using spindle::test::loopbackPeer;
using spindle::test::RecordingSink;
using spindle::test::RecordingTarget;

namespace {

struct Bad {
  OscMessage message;
  std::string reason;  // a piece of the expected reason
};

OscValue I(int v) { return OscValue::i(v); }
OscValue F(double v) { return OscValue::f(v); }
OscValue S(std::string v) { return OscValue::s(std::move(v)); }
OscValue T(char type) { return OscValue{type, 0, 0.0, {}}; }

std::vector<Bad> malformedTable() {
  return {
      {{"/spindle/bogus", {}}, "unknown address"},
      {{"/other/thing", {I(1)}}, "start with /spindle/"},
      {{"/spindle", {}}, "unknown address"},
      {{"/spindle/note_on", {I(1), I(60)}}, "expects 3 argument(s) 'iii', got 2 'ii'"},
      {{"/spindle/note_on", {I(1), I(60), I(100), I(1)}}, "got 4"},
      {{"/spindle/note_on", {S("one"), I(60), I(100)}}, "argument 1 (channel) must be an integer"},
      {{"/spindle/note_on", {I(1), F(60.5), I(100)}}, "argument 2 (key) must be an integer (i), got 'f'"},
      {{"/spindle/note_on", {I(0), I(60), I(100)}}, "argument 1 (channel) must be 1..16, got 0"},
      {{"/spindle/note_on", {I(17), I(60), I(100)}}, "must be 1..16, got 17"},
      {{"/spindle/note_on", {I(1), I(128), I(100)}}, "argument 2 (key) must be 0..127"},
      {{"/spindle/note_on", {I(1), I(60), I(-1)}}, "argument 3 (velocity) must be 0..127"},
      {{"/spindle/note_off", {}}, "expects 2 argument(s)"},
      {{"/spindle/cc", {I(1), I(200), I(0)}}, "argument 2 (controller) must be 0..127"},
      {{"/spindle/pitchbend", {I(1), I(9000)}}, "argument 2 (value) must be -8192..8191"},
      {{"/spindle/pressure", {I(2), I(128)}}, "argument 2 (value) must be 0..127"},
      {{"/spindle/program", {I(1), T('T')}}, "must be an integer (i), got 'T'"},
      {{"/spindle/load", {I(1)}}, "expects 2 argument(s) 'is'"},
      {{"/spindle/load", {I(99), S("/x.sfz")}}, "argument 1 (part) must be 1..16, got 99"},
      {{"/spindle/load", {I(1), I(5)}}, "argument 2 (path) must be a string"},
      {{"/spindle/load", {I(1), S("")}}, "must not be empty"},
      {{"/spindle/load", {I(1), S("/nonexistent/spindle/none.sfz")}}, "no such file: /nonexistent/spindle/none.sfz"},
      {{"/spindle/unload", {I(-3)}}, "part) must be 1..16"},
      {{"/spindle/part/volume", {I(1), F(40)}}, "argument 2 (dB) must be -144..12, got 40"},
      {{"/spindle/part/volume", {I(1), F(std::nan(""))}}, "must be -144..12, got nan"},
      {{"/spindle/part/pan", {I(1), S("left")}}, "must be a number (f or i), got 's'"},
      {{"/spindle/part/mute", {I(1), I(2)}}, "argument 2 (on) must be 0..1"},
      {{"/spindle/part/solo", {F(1), I(1)}}, "argument 1 (part) must be an integer"},
      {{"/spindle/polyphony", {I(0)}}, "argument 1 (voices) must be 1..4096"},
      {{"/spindle/polyphony", {I(1000)}}, "polyphony must be at most 256"},
      {{"/spindle/preload", {I(10)}}, "argument 1 (frames) must be 512..1048576"},
      {{"/spindle/quality", {I(4)}}, "argument 1 (quality) must be 0..3"},
      {{"/spindle/panic", {I(1)}}, "expects 0 argument(s) '', got 1 'i'"},
      {{"/spindle/status", {S("now")}}, "expects 0 argument(s)"},
      {{"/spindle/subscribe", {F(100)}}, "argument 1 (rate) must be 0.1..30, got 100"},
      {{"/spindle/subscribe", {F(0)}}, "must be 0.1..30, got 0"},
      {{"/spindle/subscribe", {}}, "expects 1 argument(s) 'f'"},
      {{"/spindle/unsubscribe", {}}, "not subscribed"},
      {{"/spindle/reply_port", {I(70000)}}, "argument 1 (port) must be 0..65535"},
      {{"/spindle/session/save", {S("/nonexistent-dir/x.spindle")}}, "cannot write /nonexistent-dir/x.spindle"},
      {{"/spindle/session/load", {S("/nonexistent-dir/x.spindle")}}, "cannot open session file"},
      {{"/spindle/session/load", {I(3)}}, "must be a string (s), got 'i'"},
  };
}

}  // namespace

TEST_CASE("every malformed message gets one error with its reason; the target is untouched", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  const auto table = malformedTable();
  REQUIRE(table.size() >= 20);
  for (const Bad& bad : table) {
    INFO(describe(bad.message));
    core.handle(loopbackPeer(), bad.message);
    core.tick(ControlCore::Clock::now());
    const auto replies = sink.take();
    REQUIRE(replies.size() == 1);
    const OscMessage& error = replies[0].message;
    CHECK(error.path == "/spindle/error");
    REQUIRE(error.typespec() == "ss");
    CHECK(error.args[0].text == bad.message.path);
    CHECK_THAT(error.args[1].text, Catch::Contains(bad.reason));
  }
  CHECK(target.calls.empty());
  core.handle(loopbackPeer(), {"/spindle/note_on", {I(1), I(60), I(100)}});
  CHECK(target.last() == "midi 144 60 100");
  CHECK(sink.take().empty());
}

TEST_CASE("unreadable packets are reported, not dispatched", "[control]") {
  OscDispatcher dispatcher;
  std::string error;
  REQUIRE(dispatcher.create(error));
  int messages = 0;
  const OscDispatcher::Handler count = [&](const OscMessage&) { ++messages; };
  std::vector<std::vector<uint8_t>> packets = {
      {'h', 'e', 'l', 'l', 'o', '!', '!', '!'},                     // no leading '/'
      {'/', 'x', 0, 0, 'i', 'i', 'i', 0},                           // no type tag
      {'/', 'x', 0, 0, ',', 'i', 'i', 0, 0, 0, 0, 1},               // arguments missing
      {'/', 'x', 0, 0, ',', 's', 0, 0, 'a', 'b', 'c', 'd'},         // unterminated string
      {'#', 'b', 'u', 'n', 'd', 'l', 'e', 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0},  // element past the end
      {},
  };
  for (auto& packet : packets) {
    INFO(packet.size());
    CHECK_FALSE(dispatcher.dispatch(packet.data(), packet.size(), count, error));
    CHECK_THAT(error, Catch::Contains("unreadable OSC packet"));
  }
  CHECK(messages == 0);
  auto good = serialise({"/spindle/ping", {}});
  CHECK(dispatcher.dispatch(good.data(), good.size(), count, error));
  CHECK(messages == 1);
}

}  // namespace malformed_tests
