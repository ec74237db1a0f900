// RemoteHost's state machine and restore, with time stepped by the test and what it
// sends recorded (RecordingTransport): subscribing, connecting, losing a host and
// giving a returning host its parts back.
#include "RecordingTransport.h"
#include "catch.h"
#include "cluster/RemoteHost.h"

namespace remote_host_tests {

using namespace spindle;
using cluster::Clock;
using cluster::HostState;
using cluster::RemoteHost;
using control::OscMessage;
using control::OscValue;
using namespace std::chrono_literals;

namespace {

OscMessage status(double voices, double underruns) {
  return {"/spindle/status", {OscValue::s("voices"), OscValue::f(voices), OscValue::s("underruns"),
                              OscValue::h(static_cast<int64_t>(underruns)), OscValue::s("memory_bytes"),
                              OscValue::f(4096)}};
}
OscMessage loadDone(int part, const std::string& name) {
  return {"/spindle/load/done", {OscValue::i(part), OscValue::s(name), OscValue::i(12), OscValue::i(0)}};
}

struct Fixture {
  test::RecordingTransport wire;
  RemoteHost host{control::HostSettings{"a", "10.0.0.2", 9951, {}, {}}, wire};
  Clock::time_point t0 = Clock::now();
};

}  // namespace

TEST_CASE("a host is subscribed to until it answers, and is sent nothing else meanwhile", "[cluster]") {
  Fixture f;
  f.host.tick(f.t0);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/subscribe f 2.000000"});
  f.host.tick(f.t0 + 500ms);
  CHECK(f.wire.take().empty());
  f.host.load(0, "/srv/piano.sfz");
  f.host.setVolume(0, -6.0f);
  CHECK(f.wire.take().empty());
  f.host.tick(f.t0 + 1s);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/subscribe f 2.000000"});
  CHECK(f.host.state() == HostState::Connecting);
  CHECK(f.host.view(f.t0 + 1s).state == "connecting");
}

TEST_CASE("the first status connects and sends what was asked meanwhile", "[cluster]") {
  Fixture f;
  f.host.tick(f.t0);
  f.host.load(0, "/srv/piano.sfz");
  f.host.setVolume(0, -6.0f);
  f.host.setControl(0, 91, 40);
  f.wire.take();
  f.host.onMessage(status(3, 1), f.t0 + 200ms);
  CHECK(f.host.state() == HostState::Connected);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/load is 1 \"/srv/piano.sfz\"",
                                                  "/spindle/part/volume if 1 -6.000000"});
  // The load's reply brings the volume and controllers again (the instrument's set_cc may move them).
  f.host.onMessage(loadDone(1, "piano"), f.t0 + 300ms);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/part/volume if 1 -6.000000", "/spindle/cc iii 1 91 40",
                                                  "/spindle/part/controls i 1", "/spindle/part/controls i 1"});
  const control::HostView view = f.host.view(f.t0 + 700ms);
  CHECK(view.value("voices") == 3.0);
  CHECK(view.value("underruns") == 1.0);
  CHECK(view.value("memory_bytes") == 4096.0);
  CHECK(view.value("xruns") == -1.0);
  CHECK(view.statusAgeSeconds == Approx(0.5));
  REQUIRE(view.parts.size() == 1);
  CHECK(view.parts[0].instrument == "piano");
  CHECK(view.parts[0].regions == 12);
  CHECK(view.parts[0].asked.volumeDb == -6.0f);
}

TEST_CASE("a connected host is sent commands at once and pinged for the round trip", "[cluster]") {
  Fixture f;
  f.host.onMessage(status(0, 0), f.t0);
  f.wire.take();
  f.host.setVolume(2, -3.5f);
  f.host.setControl(2, 74, 100);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/part/volume if 3 -3.500000", "/spindle/cc iii 3 74 100",
                                                  "/spindle/part/controls i 3"});
  f.host.tick(f.t0 + 100ms);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/ping "});
  f.host.onMessage({"/spindle/pong", {}}, f.t0 + 107ms);
  CHECK(f.host.view(f.t0 + 107ms).roundTripMs == Approx(7.0));
  f.host.onMessage({"/spindle/part/controls", {OscValue::i(3), OscValue::i(74), OscValue::s("Brightness"),
                                               OscValue::f(100.0 / 127)}},
                   f.t0 + 110ms);
  const auto parts = f.host.view(f.t0 + 110ms).parts;
  REQUIRE(parts.size() == 1);
  REQUIRE(parts[0].controls.size() == 1);
  CHECK(parts[0].controls[0].first == "Brightness");
  CHECK(parts[0].controls[0].second == Approx(100.0 / 127));
}

TEST_CASE("a host silent for lostAfter is lost; when it returns it gets every part back", "[cluster]") {
  Fixture f;
  f.host.onMessage(status(0, 0), f.t0);
  f.host.load(0, "/srv/piano.sfz");
  f.host.setVolume(0, -6.0f);
  f.host.setControl(0, 91, 40);
  f.host.setVolume(5, -12.0f);
  f.host.onMessage(loadDone(1, "piano"), f.t0 + 100ms);
  f.host.tick(f.t0 + 2900ms);
  CHECK(f.host.state() == HostState::Connected);
  f.wire.take();
  f.host.tick(f.t0 + 3001ms);
  CHECK(f.host.state() == HostState::Lost);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/subscribe f 2.000000"});
  f.host.setControl(0, 74, 20);  // asked while lost: remembered, not sent
  CHECK(f.wire.take().empty());
  f.host.onMessage(status(0, 0), f.t0 + 10s);
  CHECK(f.host.state() == HostState::Returned);
  CHECK(f.host.view(f.t0 + 10s).returns == 1);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/load is 1 \"/srv/piano.sfz\"",
                                                  "/spindle/part/volume if 1 -6.000000",
                                                  "/spindle/part/volume if 6 -12.000000"});
  f.host.onMessage(loadDone(1, "piano"), f.t0 + 10200ms);
  CHECK(f.host.state() == HostState::Connected);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/part/volume if 1 -6.000000", "/spindle/cc iii 1 74 20",
                                                  "/spindle/cc iii 1 91 40", "/spindle/part/controls i 1",
                                                  "/spindle/part/controls i 1"});
}

TEST_CASE("a restored load that fails ends the restore and is kept as the part's error", "[cluster]") {
  Fixture f;
  f.host.onMessage(status(0, 0), f.t0);
  f.host.load(1, "/srv/gone.sfz");
  f.host.tick(f.t0 + 4s);
  REQUIRE(f.host.state() == HostState::Lost);
  f.host.onMessage(status(0, 0), f.t0 + 5s);
  REQUIRE(f.host.state() == HostState::Returned);
  f.host.onMessage({"/spindle/error", {OscValue::s("/spindle/load"), OscValue::s("no such file: /srv/gone.sfz")}},
                   f.t0 + 5100ms);
  CHECK(f.host.state() == HostState::Connected);
  const auto view = f.host.view(f.t0 + 5100ms);
  REQUIRE(view.parts.size() == 1);
  CHECK(view.parts[0].part == 1);
  CHECK(view.parts[0].error == "no such file: /srv/gone.sfz");
  f.host.onMessage({"/spindle/error", {OscValue::s("/spindle/ping"), OscValue::s("something else")}}, f.t0 + 6s);
  CHECK(f.host.view(f.t0 + 6s).error == "/spindle/ping: something else");
}

TEST_CASE("a session's parts replace what was asked and go to a connected host", "[cluster]") {
  Fixture f;
  f.host.onMessage(status(0, 0), f.t0);
  f.host.load(0, "/srv/old.sfz");
  f.wire.take();
  std::map<int, control::HostPartSettings> parts;
  parts[3].library = "/srv/new.sfz";
  parts[3].volumeDb = -1.5f;
  f.host.restore(parts);
  CHECK(f.host.settings().parts == parts);
  CHECK(f.wire.take() == std::vector<std::string>{"/spindle/load is 4 \"/srv/new.sfz\"",
                                                  "/spindle/part/volume if 4 -1.500000"});
}

}  // namespace remote_host_tests
