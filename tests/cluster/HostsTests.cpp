// Hosts over real UDP sockets on the loopback: a test socket plays the remote Spindle
// (it answers the subscription with status, stops, answers again) and the hosts thread
// connects, loses and restores it.
#include <thread>

#include "catch.h"
#include "cluster/Hosts.h"
#include "FakeHost.h"

namespace hosts_tests {

using namespace spindle;
using namespace std::chrono_literals;

namespace {

std::string stateOf(cluster::Hosts& hosts, const std::string& name) {
  for (const control::HostView& view : hosts.hosts())
    if (view.name == name) return view.state;
  return "?";
}

bool waitState(cluster::Hosts& hosts, const std::string& name, const std::string& state) {
  for (int i = 0; i < 100 && stateOf(hosts, name) != state; ++i) std::this_thread::sleep_for(20ms);
  return stateOf(hosts, name) == state;
}

}  // namespace

TEST_CASE("the hosts thread connects, loses and restores a host over UDP", "[cluster]") {
  test::FakeHost fake;
  cluster::HostTiming timing;
  timing.lostAfter = 400ms;
  timing.resubscribe = 100ms;
  cluster::Hosts hosts(timing);
  std::string error;
  REQUIRE(hosts.add({"a", "127.0.0.1", fake.port(), {}, {}}, error));
  CHECK_FALSE(hosts.add({"a", "127.0.0.1", fake.port(), {}, {}}, error));
  CHECK(error == "host a is named twice");
  CHECK(fake.next() == "/spindle/subscribe f 2.000000");
  CHECK(stateOf(hosts, "a") == "connecting");
  fake.status(2);
  REQUIRE(waitState(hosts, "a", "connected"));
  CHECK(hosts.hosts().front().value("voices") == 2.0);
  REQUIRE(hosts.load("a", 0, "/srv/piano.sfz", error));
  CHECK(fake.expect("/spindle/load is 1 \"/srv/piano.sfz\""));
  CHECK_FALSE(hosts.load("b", 0, "/srv/piano.sfz", error));
  CHECK(error == "no host named 'b'");
  // Silent: lost within lostAfter and a poll, then subscribed to again.
  REQUIRE(waitState(hosts, "a", "lost"));
  CHECK(fake.expect("/spindle/subscribe"));
  fake.status(0);
  CHECK(fake.expect("/spindle/load is 1 \"/srv/piano.sfz\""));
  CHECK(stateOf(hosts, "a") == "returned");
  fake.reply({"/spindle/load/done", {control::OscValue::i(1), control::OscValue::s("piano"), control::OscValue::i(4),
                                     control::OscValue::i(0)}});
  fake.status(0);
  REQUIRE(waitState(hosts, "a", "connected"));
  CHECK(hosts.hosts().front().returns == 1);
  CHECK(hosts.hosts().front().parts.at(0).instrument == "piano");
  CHECK(hosts.settings().front().parts.at(0).library == "/srv/piano.sfz");
}

TEST_CASE("a host address that does not resolve is refused with its name", "[cluster]") {
  cluster::Hosts hosts;
  std::string error;
  CHECK_FALSE(hosts.add({"x", "no-such-host.invalid", 9951, {}, {}}, error));
  CHECK(error.rfind("cannot resolve host address 'no-such-host.invalid'", 0) == 0);
  CHECK(hosts.empty());
}

}  // namespace hosts_tests
