// A captured command does not cross hosts (docs/osc.md, "Security"): the master signs
// each host's packets for that host alone. A UDP socket stands in for host A: it answers
// the master's subscription with one signed status, as a host does, so the master sends
// it commands, and it catches the master's signed /spindle/load. The same bytes sent to
// host B, a real OscServer that shares the secret and requires signing, are refused and
// counted as misaddressed and never reach B's target, while B's own signed commands
// work. And a reply that a real host A signed is not read as host B's.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../control/RecordingTarget.h"
#include "catch.h"
#include "cluster/Hosts.h"
#include "cluster/SignedTransport.h"
#include "control/OscServer.h"

namespace captured_packet_tests {

using namespace spindle;
using namespace std::chrono_literals;

namespace {

std::string writeFile(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()));
  std::ofstream(path, std::ios::trunc) << text << '\n';
  ::chmod(path.c_str(), 0600);
  return path.string();
}

// A UDP socket on 127.0.0.1 (a free port): a host that only listens, or a client.
struct UdpSocket {
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  int port = 0;
  UdpSocket() {
    sockaddr_in local{};
    local.sin_family = AF_INET;
    local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof local;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0)
      port = ntohs(local.sin_port);
  }
  ~UdpSocket() { ::close(fd); }
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;

  bool sendTo(int to, const control::Bytes& bytes) const {
    const control::Peer peer = *control::Peer::udp("127.0.0.1", to);
    return ::sendto(fd, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&peer.address),
                    peer.length) == static_cast<ssize_t>(bytes.size());
  }
  // The next datagram within `ms`, or nothing; its source in `from` when given.
  control::Bytes receive(int ms, control::Peer* from = nullptr) const {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, ms) <= 0) return {};
    control::Bytes buffer(65536);
    control::Peer source;
    source.length = sizeof source.address;
    const ssize_t n =
        ::recvfrom(fd, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&source.address), &source.length);
    buffer.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    if (from) *from = source;
    return buffer;
  }
};

// The first string of an OSC packet: its address.
std::string addressOf(const uint8_t* packet, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(packet), strnlen(reinterpret_cast<const char*>(packet), size));
}

// Plays host A until the master sends it a signed packet carrying `address`, and returns
// those bytes: each signed subscription gets a signed status back, from A to the master.
control::Bytes captureSigned(const UdpSocket& host, const control::Bytes& secret, const std::string& address) {
  const std::string self = "127.0.0.1:" + std::to_string(host.port);
  for (int k = 0; k < 200; ++k) {
    control::Peer master;
    control::Bytes bytes = host.receive(50, &master);
    control::Bytes parsed = bytes;
    std::string error;
    const auto p = control::parseSigned(parsed.data(), parsed.size(), error);
    if (!p) continue;
    const std::string inner = addressOf(p->packet, p->packetSize);
    if (inner == address) return bytes;
    if (inner != "/spindle/subscribe") continue;
    const control::OscMessage status{"/spindle/status", {control::OscValue::s("voices"), control::OscValue::f(0.0f)}};
    const auto reply = control::signMessage(secret, {self, p->sender}, static_cast<uint64_t>(control::nowMicros()), status);
    ::sendto(host.fd, reply.data(), reply.size(), 0, reinterpret_cast<const sockaddr*>(&master.address), master.length);
  }
  return {};
}

template <typename Done>
bool waitFor(Done done) {
  for (int i = 0; i < 150 && !done(); ++i) std::this_thread::sleep_for(20ms);
  return done();
}

bool called(const test::RecordingTarget& target, const std::string& call) {
  return std::find(target.calls.begin(), target.calls.end(), call) != target.calls.end();
}

control::OscServerOptions signingOptions(const std::string& secretFile) {
  std::string error;
  return control::oscServerOptions(-1, "127.0.0.1", secretFile, true, false, error).value();
}

}  // namespace

TEST_CASE("a command captured on its way to host A is refused by host B, whose own commands work",
          "[cluster][net][auth]") {
  const std::string secretFile = writeFile("spindle-captured-secret-", "0123456789abcdef-cluster");
  const std::string library = writeFile("spindle-captured-library-", "<region> sample=a.wav");
  test::RecordingTarget targetB;
  control::OscServer hostB(targetB, signingOptions(secretFile));
  std::string error;
  REQUIRE(hostB.start(error));
  const UdpSocket hostA;  // listens only
  REQUIRE(hostA.port > 0);

  const control::Bytes secret = control::readSecretFile(secretFile, error).value();
  cluster::Hosts hosts;
  hosts.setSigning(secret, "master");
  REQUIRE(hosts.add({"a", "127.0.0.1", hostA.port, {}, {}}, error));
  REQUIRE(hosts.add({"b", "127.0.0.1", hostB.port(), {}, {}}, error));
  REQUIRE(hosts.load("a", 0, library, error));
  const control::Bytes captured = captureSigned(hostA, secret, "/spindle/load");
  REQUIRE_FALSE(captured.empty());

  const UdpSocket attacker;
  REQUIRE(attacker.sendTo(hostB.port(), captured));
  REQUIRE(waitFor([&] { return hostB.core().refused(control::AuthRefusal::Misaddressed) >= 1; }));
  REQUIRE(hosts.load("b", 0, library, error));
  REQUIRE(waitFor([&] { return called(targetB, "load 0 " + library); }));
  hosts.stop();
  hostB.stop();
  CHECK(hostB.core().refused(control::AuthRefusal::Misaddressed) == 1);
  CHECK(hostB.core().refused(control::AuthRefusal::BadMac) == 0);
  CHECK(std::count(targetB.calls.begin(), targetB.calls.end(), "load 0 " + library) == 1);  // B's own load only
  CHECK(hostB.core().verified() >= 2);  // the subscription and the load, at least
  std::filesystem::remove(secretFile);
  std::filesystem::remove(library);
}

TEST_CASE("a reply signed by host A is not read as host B's", "[cluster][net][auth]") {
  const std::string secretFile = writeFile("spindle-reply-secret-", "0123456789abcdef-cluster");
  std::string error;
  const control::Bytes secret = control::readSecretFile(secretFile, error).value();
  test::RecordingTarget targetA, targetB;
  control::OscServer hostA(targetA, signingOptions(secretFile)), hostB(targetB, signingOptions(secretFile));
  REQUIRE(hostA.start(error));
  REQUIRE(hostB.start(error));
  const std::string a = "127.0.0.1:" + std::to_string(hostA.port()), b = "127.0.0.1:" + std::to_string(hostB.port());

  const UdpSocket master;
  const int64_t now = control::nowMicros();
  REQUIRE(master.sendTo(hostA.port(), control::signMessage(secret, {"master", a}, static_cast<uint64_t>(now),
                                                           {"/spindle/ping", {}})));
  const control::Bytes pong = master.receive(2000);
  hostA.stop();
  hostB.stop();
  REQUIRE_FALSE(pong.empty());

  cluster::ReplyVerifier asB(secret, {b, "master"}), asA(secret, {a, "master"});
  control::Bytes copy = pong;
  CHECK_FALSE(asB.admit(copy.data(), copy.size(), control::nowMicros()));
  CHECK(asB.refused(control::AuthRefusal::Misaddressed) == 1);
  copy = pong;
  const auto read = asA.admit(copy.data(), copy.size(), control::nowMicros());
  REQUIRE(read);
  CHECK(addressOf(read->data, read->size) == "/spindle/pong");
  std::filesystem::remove(secretFile);
}

}  // namespace captured_packet_tests
