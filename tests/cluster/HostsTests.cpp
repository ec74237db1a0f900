// Hosts over real UDP sockets on the loopback: a test socket plays the remote Spindle
// (it answers the subscription with status, stops, answers again) and the hosts thread
// connects, loses and restores it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <unistd.h>

#include <thread>

#include "catch.h"
#include "cluster/Hosts.h"
#include "control/OscDispatcher.h"

using namespace spindle;
using namespace std::chrono_literals;

namespace {

// A UDP socket on 127.0.0.1 that receives what the master sends and answers it.
struct FakeHost {
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in self{}, master{};
  control::OscDispatcher dispatcher;

  FakeHost() {
    self.sin_family = AF_INET;
    self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof self;
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&self), sizeof self) == 0);
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&self), &length) == 0);
    std::string error;
    REQUIRE(dispatcher.create(error));
  }
  ~FakeHost() { ::close(fd); }
  int port() const { return ntohs(self.sin_port); }

  // The next message within `wait` (its path and arguments), or "" when none came.
  std::string next(std::chrono::milliseconds wait = 2000ms) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(wait.count())) <= 0) return {};
    uint8_t buffer[4096];
    socklen_t length = sizeof master;
    const ssize_t got = ::recvfrom(fd, buffer, sizeof buffer, 0, reinterpret_cast<sockaddr*>(&master), &length);
    std::string text, error;
    dispatcher.dispatch(buffer, static_cast<std::size_t>(got), [&](const control::OscMessage& m) { text = describe(m); }, error);
    return text;
  }
  // Waits for a message starting with `prefix`, skipping others (pings, subscriptions).
  bool expect(const std::string& prefix) {
    for (auto end = std::chrono::steady_clock::now() + 3s; std::chrono::steady_clock::now() < end;)
      if (next(100ms).rfind(prefix, 0) == 0) return true;
    return false;
  }
  void reply(const control::OscMessage& message) {
    const auto bytes = control::serialise(message);
    ::sendto(fd, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&master), sizeof master);
  }
  void status(int voices) {
    reply({"/spindle/status", {control::OscValue::s("voices"), control::OscValue::i(voices)}});
  }
};

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
  FakeHost fake;
  cluster::HostTiming timing;
  timing.lostAfter = 400ms;
  timing.resubscribe = 100ms;
  cluster::Hosts hosts(timing);
  std::string error;
  REQUIRE(hosts.add({"a", "127.0.0.1", fake.port(), {}}, error));
  CHECK_FALSE(hosts.add({"a", "127.0.0.1", fake.port(), {}}, error));
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
  CHECK_FALSE(hosts.add({"x", "no-such-host.invalid", 9951, {}}, error));
  CHECK(error.rfind("cannot resolve host address 'no-such-host.invalid'", 0) == 0);
  CHECK(hosts.empty());
}
