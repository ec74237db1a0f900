// The master's host addresses (/spindle/host/...), host specs and a session's [host]
// sections.
#include "RecordingTarget.h"
#include "catch.h"
#include "control/SessionFile.h"

namespace hosts_control_tests {

using namespace spindle::control;
using spindle::test::loopbackPeer;
using spindle::test::RecordingSink;
using spindle::test::RecordingTarget;

namespace {

OscMessage ask(ControlCore& core, RecordingSink& sink, OscMessage message) {
  core.handle(loopbackPeer(), message);
  auto replies = sink.take();
  REQUIRE(replies.size() == 1);
  return replies.front().message;
}

}  // namespace

TEST_CASE("host specs: NAME=ADDR[:PORT]", "[control][hosts]") {
  std::string error;
  auto host = parseHostSpec("a=192.168.1.20:9000", error);
  REQUIRE(host);
  CHECK(host->name == "a");
  CHECK(host->address == "192.168.1.20");
  CHECK(host->port == 9000);
  host = parseHostSpec("stage=box.local", error);
  REQUIRE(host);
  CHECK(host->address == "box.local");
  CHECK(host->port == 9951);
  host = parseHostSpec("v6=[::1]:9960", error);
  REQUIRE(host);
  CHECK(host->address == "::1");
  CHECK(host->port == 9960);
  CHECK_FALSE(parseHostSpec("nohost", error));
  CHECK(error == "a host is NAME=ADDR[:PORT][@JACKCLIENT], not 'nohost'");
  CHECK_FALSE(parseHostSpec("a=10.0.0.1:70000", error));
  CHECK(error == "host a: the port must be 1..65535, not '70000'");
  CHECK_FALSE(parseHostSpec("=10.0.0.1", error));
}

TEST_CASE("host specs: @JACKCLIENT names the host's NetJACK2 client on the master", "[control][hosts]") {
  std::string error;
  auto host = parseHostSpec("h1=10.0.0.2:9960@spindle_host1", error);
  REQUIRE(host);
  CHECK(host->address == "10.0.0.2");
  CHECK(host->port == 9960);
  CHECK(host->jackClient == "spindle_host1");
  host = parseHostSpec("v6=[::1]@strings", error);
  REQUIRE(host);
  CHECK(host->address == "::1");
  CHECK(host->port == 9951);
  CHECK(host->jackClient == "strings");
  host = parseHostSpec("plain=10.0.0.3", error);
  REQUIRE(host);
  CHECK(host->jackClient.empty());
  CHECK_FALSE(parseHostSpec("h=10.0.0.2@", error));
  CHECK(error == "a host's JACK client is a name without ':' or spaces, not ''");
  CHECK_FALSE(parseHostSpec("h=10.0.0.2@a:b", error));
  CHECK(error == "a host's JACK client is a name without ':' or spaces, not 'a:b'");
  CHECK_FALSE(parseHostSpec("@x=10.0.0.2", error));
}

TEST_CASE("the host addresses reply what the hosts hold", "[control][hosts]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  const OscMessage list = ask(core, sink, {"/spindle/host/list", {}});
  CHECK(describe(list) == "/spindle/host/list sssisi \"a\" \"connected\" \"127.0.0.1\" 9952 \"\" 0");
  const OscMessage status = ask(core, sink, {"/spindle/host/status", {OscValue::s("a")}});
  CHECK(describe(status) == "/spindle/host/status ssffsfsfsfsfsfsf \"a\" \"connected\" -1.000000 0.500000 \"voices\" 3.000000 "
                            "\"underruns\" 0.000000 \"audio_round_trip_ms\" 16.000000 \"signed\" 1.000000 "
                            "\"refused_replies\" 2.000000 \"routed\" 0.000000");
  target.connectionState.hostRoutes = {{"a", "spindle_host1", "spindle_host1-01", true, true, "x"}};
  CHECK(describe(ask(core, sink, {"/spindle/host/list", {}})) ==
        "/spindle/host/list sssisi \"a\" \"connected\" \"127.0.0.1\" 9952 \"spindle_host1-01\" 3");
  target.connectionState.hostRoutes[0].audio = false;
  const OscMessage midiOnly = ask(core, sink, {"/spindle/host/status", {OscValue::s("a")}});
  CHECK(describe(midiOnly).ends_with("\"routed\" 1.000000"));
  core.handle(loopbackPeer(), {"/spindle/host/load", {OscValue::s("a"), OscValue::i(4), OscValue::s("/srv/p.sfz")}});
  CHECK(sink.take().empty());
  CHECK(core.dirty());
  const OscMessage parts = ask(core, sink, {"/spindle/host/parts", {OscValue::s("a")}});
  CHECK(describe(parts) == "/spindle/host/parts sisfss \"a\" 4 \"/srv/p.sfz\" 0.000000 \"piano\" \"\"");
}

TEST_CASE("a host the master does not drive is an error naming it", "[control][hosts]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  const OscMessage reply = ask(core, sink, {"/spindle/host/part/volume", {OscValue::s("b"), OscValue::i(1), OscValue::f(-3)}});
  CHECK(describe(reply) == "/spindle/error ss \"/spindle/host/part/volume\" \"no host named 'b'\"");
  CHECK(target.calls.empty());
  const OscMessage range = ask(core, sink, {"/spindle/host/part/cc", {OscValue::s("a"), OscValue::i(17), OscValue::i(1), OscValue::i(1)}});
  CHECK(range.path == "/spindle/error");
  CHECK(range.args[1].text == "argument 2 (part) must be 1..16, got 17");
}

TEST_CASE("a session keeps its hosts and what was asked of their parts", "[control][hosts]") {
  SessionState state;
  HostSettings a{"a", "192.168.1.20", 9000, {}, {}};
  a.parts[0].library = "/srv/libraries/piano.sfz";
  a.parts[0].volumeDb = -6.5f;
  a.parts[0].controls = {{74, 100}, {91, 40}};
  a.parts[3].controls = {{1, 0}};
  state.hosts = {a, HostSettings{"b", "box.local", 9951, {}, {}}};
  const std::string text = formatSession(state);
  CHECK(text.find("[host a]\naddress = 192.168.1.20:9000\npart 1 instrument = /srv/libraries/piano.sfz\n"
                  "part 1 volume = -6.5\npart 1 cc 74 = 100\npart 1 cc 91 = 40\npart 4 cc 1 = 0\n") !=
        std::string::npos);
  std::string error;
  const auto back = parseSession(text, "/home/me/s.spindle", error);
  REQUIRE(back);
  CHECK(back->hosts == state.hosts);  // the remote path is kept as written, not made relative
}

TEST_CASE("a session keeps a host's JACK client and reads it back", "[control][hosts]") {
  SessionState state;
  HostSettings a;
  a.name = "a";
  a.address = "10.0.0.2";
  a.jackClient = "spindle_host1";
  a.parts[1].library = "/srv/drums.sfz";
  state.hosts = {a};
  const std::string text = formatSession(state);
  CHECK(text.find("[host a]\naddress = 10.0.0.2:9951\njack_client = spindle_host1\npart 2 instrument = /srv/drums.sfz\n") !=
        std::string::npos);
  std::string error;
  const auto back = parseSession(text, "s.spindle", error);
  REQUIRE(back);
  CHECK(back->hosts == state.hosts);
  CHECK_FALSE(parseSession("[host a]\naddress = 10.0.0.1\njack_client = a:b\n", "s.spindle", error));
  CHECK(error == "s.spindle:3: a host's JACK client is a name without ':' or spaces, not 'a:b'");
}

TEST_CASE("a bad host line names the file and line", "[control][hosts]") {
  std::string error;
  CHECK_FALSE(parseSession("[host a]\naddress = 10.0.0.1\npart 1 volume = loud\n", "s.spindle", error));
  CHECK(error == "s.spindle:3: bad volume 'loud' (-144..12 dB)");
  CHECK_FALSE(parseSession("[host a]\npart 17 instrument = /x.sfz\n", "s.spindle", error));
  CHECK(error.rfind("s.spindle:2: unknown host key 'part 17 instrument'", 0) == 0);
  CHECK_FALSE(parseSession("[host a]\naddress = 10.0.0.1:0\n", "s.spindle", error));
  CHECK(error == "s.spindle:2: host a: the port must be 1..65535, not '0'");
}

}  // namespace hosts_control_tests
