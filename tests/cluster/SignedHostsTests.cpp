// Signed control between a master's Hosts and a real OscServer on 127.0.0.1 that requires
// signing from every peer: a master with the cluster secret connects, its load and level
// reach the host and the host's status arrives (its audio round trip in ms at the master's
// rate); a master with a wrong secret stays unconnected and the host counts bad MACs.
// The signing transport and the reply checks are also tested on their own.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../control/RecordingTarget.h"
#include "catch.h"
#include "cluster/Hosts.h"
#include "cluster/SignedTransport.h"
#include "control/OscGate.h"
#include "control/OscServer.h"

namespace signed_hosts_tests {

using namespace spindle;
using namespace std::chrono_literals;

namespace {

std::string writeSecret(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()));
  std::ofstream(path, std::ios::trunc) << text << '\n';
  ::chmod(path.c_str(), 0600);
  return path.string();
}

control::Bytes secretOf(const std::string& file) {
  std::string error;
  return control::readSecretFile(file, error).value();
}

control::HostView viewOf(cluster::Hosts& hosts) {
  const auto views = hosts.hosts();
  return views.empty() ? control::HostView{} : views.front();
}

template <typename Done>
bool waitFor(Done done) {
  for (int i = 0; i < 150 && !done(); ++i) std::this_thread::sleep_for(20ms);
  return done();
}

bool called(const test::RecordingTarget& target, const std::string& call) {
  return std::find(target.calls.begin(), target.calls.end(), call) != target.calls.end();
}

}  // namespace

TEST_CASE("a master signs what it sends a host that requires signing, and reads its signed replies",
          "[cluster][net]") {
  const std::string secretFile = writeSecret("spindle-cluster-secret-", "0123456789abcdef-cluster");
  std::string error;
  auto options = control::oscServerOptions(-1, "127.0.0.1", secretFile, true, false, error);
  REQUIRE(options);
  test::RecordingTarget target;
  control::OscServer server(target, std::move(*options));
  REQUIRE(server.start(error));

  cluster::HostTiming timing;
  timing.ping = 100ms;
  cluster::Hosts hosts(timing);
  hosts.setSigning(secretOf(secretFile), "master");
  hosts.setSampleRate(48000.0);
  const std::string library = writeSecret("spindle-cluster-library-", "<region> sample=a.wav");  // a file there
  REQUIRE(hosts.add({"a", "127.0.0.1", server.port(), {}, {}}, error));
  REQUIRE(waitFor([&] { return viewOf(hosts).state == "connected"; }));
  REQUIRE(hosts.load("a", 0, library, error));
  REQUIRE(hosts.setVolume("a", 0, -6.0f, error));
  REQUIRE(waitFor([&] { return !viewOf(hosts).parts.empty() && viewOf(hosts).parts.front().instrument == "inst"; }));
  REQUIRE(waitFor([&] { return viewOf(hosts).roundTripMs >= 0.0; }));
  std::this_thread::sleep_for(200ms);  // the level follows the load's reply
  const control::HostView view = viewOf(hosts);
  hosts.stop();
  server.stop();
  CHECK(view.signedControl);
  CHECK(view.refusedReplies == 0);
  CHECK(view.value("voices") == 7.0);
  CHECK(view.audioRoundTripFrames == 768.0);
  CHECK(view.audioRoundTripMs == Approx(16.0));
  CHECK(view.roundTripMs < 1000.0);
  CHECK(called(target, "load 0 " + library));
  CHECK(called(target, "volume 0 -6"));
  CHECK(server.core().verified() >= 3);  // subscribe, load, volume (and pings)
  CHECK(server.core().refused(control::AuthRefusal::Unsigned) == 0);
  CHECK(server.core().refused(control::AuthRefusal::BadMac) == 0);
  std::filesystem::remove(secretFile);
  std::filesystem::remove(library);
}

TEST_CASE("a host that requires signing refuses a master with a wrong secret", "[cluster][net]") {
  const std::string secretFile = writeSecret("spindle-cluster-right-", "0123456789abcdef-cluster");
  const std::string wrongFile = writeSecret("spindle-cluster-wrong-", "0123456789abcdef-another");
  std::string error;
  auto options = control::oscServerOptions(-1, "127.0.0.1", secretFile, true, false, error);
  REQUIRE(options);
  test::RecordingTarget target;
  control::OscServer server(target, std::move(*options));
  REQUIRE(server.start(error));

  cluster::HostTiming timing;
  timing.resubscribe = 100ms;
  cluster::Hosts hosts(timing);
  hosts.setSigning(secretOf(wrongFile), "master");
  REQUIRE(hosts.add({"a", "127.0.0.1", server.port(), {}, {}}, error));
  REQUIRE(hosts.load("a", 0, "/srv/piano.sfz", error));
  // Each subscription is refused; the host's unsigned errors are counted, not read.
  REQUIRE(waitFor([&] { return viewOf(hosts).refusedReplies >= 3; }));
  const control::HostView view = viewOf(hosts);
  hosts.stop();
  server.stop();
  CHECK(view.state == "connecting");
  CHECK(view.status.empty());
  CHECK(view.roundTripMs < 0.0);
  CHECK(view.error.empty());
  CHECK(server.core().refused(control::AuthRefusal::BadMac) >= 3);
  CHECK(server.core().verified() == 0);
  CHECK_FALSE(called(target, "load 0 /srv/piano.sfz"));
  std::filesystem::remove(secretFile);
  std::filesystem::remove(wrongFile);
}

TEST_CASE("a signed reply is read only when its MAC, route and counter verify", "[cluster]") {
  const control::Bytes secret(20, 'k'), other(20, 'x');
  const control::OscMessage pong{"/spindle/pong", {}};
  const uint64_t now = 1'700'000'000'000'000;
  const control::SignedRoute back{"10.0.0.2:9951", "master"};  // from host a, to the master
  cluster::ReplyVerifier verifier(secret, back);
  using control::AuthRefusal;
  const auto admit = [&](control::Bytes bytes) { return verifier.admit(bytes.data(), bytes.size(), now); };

  control::Bytes good = control::signMessage(secret, back, now, pong);
  const auto inner = verifier.admit(good.data(), good.size(), now);
  REQUIRE(inner);
  CHECK(std::vector<uint8_t>(inner->data, inner->data + inner->size) == control::serialise(pong));
  CHECK_FALSE(admit(control::signMessage(secret, back, now, pong)));                             // replayed
  CHECK_FALSE(admit(control::signMessage(other, back, now + 1, pong)));                          // wrong key
  CHECK_FALSE(admit(control::signMessage(secret, {"10.0.0.3:9951", "master"}, now + 2, pong)));  // host b's
  CHECK_FALSE(admit(control::signMessage(secret, {"10.0.0.2:9951", "elsewhere"}, now + 3, pong)));
  CHECK_FALSE(admit(control::signMessage(secret, back, now - 31'000'000, pong)));                // stale
  CHECK_FALSE(admit(control::serialise(pong)));                                                  // unsigned

  CHECK(verifier.verified() == 1);
  CHECK(verifier.refused(AuthRefusal::Replayed) == 1);
  CHECK(verifier.refused(AuthRefusal::BadMac) == 1);
  CHECK(verifier.refused(AuthRefusal::Misaddressed) == 2);
  CHECK(verifier.refused(AuthRefusal::Stale) == 1);
  CHECK(verifier.refused(AuthRefusal::Unsigned) == 1);
  CHECK(verifier.refusedTotal() == 6);
}

TEST_CASE("the signing transport's counters strictly increase and its packets verify", "[cluster]") {
  const control::Bytes secret(20, 'k');
  cluster::UdpTransport socket;
  cluster::SignedTransport transport(socket, secret, {"master", "10.0.0.2:9951"});
  const control::OscMessage ping{"/spindle/ping", {}};
  const int64_t now = 1'700'000'000'000'000;
  control::Bytes first = transport.sign(ping, now), second = transport.sign(ping, now);
  std::string error;
  const auto a = control::parseSigned(first.data(), first.size(), error);
  const auto b = control::parseSigned(second.data(), second.size(), error);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->sender == "master");
  CHECK(a->receiver == "10.0.0.2:9951");
  CHECK(a->counter == static_cast<uint64_t>(now));
  CHECK(b->counter == static_cast<uint64_t>(now) + 1);
  CHECK(control::macMatches(secret, *a));
  CHECK(std::vector<uint8_t>(a->packet, a->packet + a->packetSize) == control::serialise(ping));
}

}  // namespace signed_hosts_tests
