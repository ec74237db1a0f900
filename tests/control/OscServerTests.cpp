// OscServer over real sockets on 127.0.0.1: what it binds, a UDP round trip with
// liblo's own client, TCP framing as liblo's TCP client sends it, pushed status.
#include <arpa/inet.h>
#include <lo/lo.h>
#include <netinet/in.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "RecordingTarget.h"
#include "SocketTable.h"
#include "catch.h"
#include "control/OscDispatcher.h"
#include "control/OscServer.h"

namespace osc_server_tests {

using namespace spindle::control;
using spindle::test::RecordingTarget;

namespace {

const lo_timetag kNow{0, 1};  // liblo's LO_TT_IMMEDIATE is a C compound literal

// A UDP socket on 127.0.0.1 that collects OSC replies.
struct Receiver {
  int fd = -1;
  int port = 0;
  OscDispatcher dispatcher;

  Receiver() {
    std::string error;
    fd = bindSocket("127.0.0.1", 0, SOCK_DGRAM, error);
    port = localPort(fd);
    REQUIRE(dispatcher.create(error));
  }
  ~Receiver() { ::close(fd); }

  // Every message that arrives within `ms`.
  std::vector<OscMessage> collect(int ms, std::size_t stopAfter = SIZE_MAX) {
    std::vector<OscMessage> got;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    uint8_t packet[65536];
    while (got.size() < stopAfter && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 10) <= 0) continue;
      const ssize_t n = ::recv(fd, packet, sizeof packet, 0);
      std::string error;
      if (n > 0) dispatcher.dispatch(packet, static_cast<std::size_t>(n), [&](const OscMessage& m) { got.push_back(m); }, error);
    }
    return got;
  }
  void sendTo(int serverPort, const OscMessage& m) {
    const auto to = *Peer::udp("127.0.0.1", serverPort);
    const auto bytes = serialise(m);
    ::sendto(fd, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&to.address), to.length);
  }
};

}  // namespace

TEST_CASE("the OSC server binds UDP and TCP to loopback only, unless told otherwise", "[control][net]") {
  RecordingTarget target;
  OscServer server(target, {-1, "127.0.0.1"});
  std::string error;
  REQUIRE(server.start(error));
  // Before anything in this process uses liblo's own (any-interface) sockets.
  const auto sockets = spindle::test::boundSockets(::getpid());
  int udp = 0, tcp = 0;
  for (const auto& s : sockets) {
    INFO(s.protocol << " " << s.address << ":" << s.port);
    CHECK(s.loopback());
    udp += s.protocol == "udp" && s.port == server.port();
    tcp += s.protocol == "tcp" && s.port == server.port();
  }
  CHECK(udp == 1);
  CHECK(tcp == 1);
  server.stop();

  OscServer refused(target, {-1, "0.0.0.0"});  // no secret, no --osc-insecure
  CHECK_FALSE(refused.start(error));
  CHECK_THAT(error, Catch::Contains("without a secret"));
  OscServer open(target, {-1, "0.0.0.0", {}, true});  // --osc-bind 0.0.0.0 --osc-insecure: the opt-in
  REQUIRE(open.start(error));
  bool any = false;
  for (const auto& s : spindle::test::boundSockets(::getpid())) any |= s.port == open.port() && s.address == "00000000";
  CHECK(any);

  OscServer wrong(target, {-1, "localhost"});
  CHECK_FALSE(wrong.start(error));
  CHECK_THAT(error, Catch::Contains("numeric IPv4 or IPv6 address"));
}

TEST_CASE("a UDP round trip with liblo's lo_send, replies through reply_port", "[control][net]") {
  RecordingTarget target;
  OscServer server(target, {-1, "127.0.0.1"});
  std::string error;
  REQUIRE(server.start(error));
  Receiver receiver;
  const std::string port = std::to_string(server.port());
  lo_address address = lo_address_new("127.0.0.1", port.c_str());
  lo_send(address, "/spindle/reply_port", "i", receiver.port);
  lo_send(address, "/spindle/ping", "");
  lo_send(address, "/spindle/note_on", "iii", 2, 64, 99);
  lo_send(address, "/spindle/note_on", "ii", 2, 64);
  const auto replies = receiver.collect(3000, 2);
  REQUIRE(replies.size() == 2);
  CHECK(replies[0].path == "/spindle/pong");
  CHECK(describe(replies[1]) == "/spindle/error ss \"/spindle/note_on\" \"expects 3 argument(s) 'iii', got 2 'ii'\"");
  lo_address_free(address);
  server.stop();
  CHECK(target.last() == "midi 145 64 99");
}

TEST_CASE("replies go back to the sender's own address (liblo lo_send_from)", "[control][net]") {
  RecordingTarget target;
  OscServer server(target, {-1, "127.0.0.1"});
  std::string error;
  REQUIRE(server.start(error));
  lo_server client = lo_server_new_with_proto(nullptr, LO_UDP, nullptr);
  REQUIRE(client);
  int statusReplies = 0;
  lo_server_add_method(client, "/spindle/status", nullptr,
                       [](const char*, const char*, lo_arg**, int, lo_message, void* n) {
                         ++*static_cast<int*>(n);
                         return 0;
                       }, &statusReplies);
  lo_address address = lo_address_new("127.0.0.1", std::to_string(server.port()).c_str());
  lo_send_from(address, client, kNow, "/spindle/status", "");
  for (int k = 0; k < 100 && statusReplies == 0; ++k) lo_server_recv_noblock(client, 20);
  CHECK(statusReplies == 1);
  lo_address_free(address);
  lo_server_free(client);
}

TEST_CASE("TCP: liblo's framing in, framed replies back on the connection", "[control][net]") {
  RecordingTarget target;
  OscServer server(target, {-1, "127.0.0.1"});
  std::string error;
  REQUIRE(server.start(error));
  lo_address address = lo_address_new_with_proto(LO_TCP, "127.0.0.1", std::to_string(server.port()).c_str());
  REQUIRE(lo_send(address, "/spindle/part/volume", "if", 4, -6.0) > 0);
  REQUIRE(lo_send(address, "/spindle/cc", "iii", 1, 7, 100) > 0);
  for (int k = 0; k < 300 && server.packets() < 2; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  lo_address_free(address);
  server.stop();
  REQUIRE(target.calls.size() == 2);
  CHECK(target.calls[0] == "volume 3 -6");
  CHECK(target.calls[1] == "midi 176 7 100");

  // A raw client: two packets in one write, then a reply read from the connection.
  OscServer second(target, {-1, "127.0.0.1"});
  REQUIRE(second.start(error));
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const auto to = *Peer::udp("127.0.0.1", second.port());
  REQUIRE(::connect(fd, reinterpret_cast<const sockaddr*>(&to.address), to.length) == 0);
  std::vector<uint8_t> stream;
  for (const char* path : {"/spindle/panic", "/spindle/ping"}) {
    const auto packet = serialise({path, {}});
    const uint32_t length = htonl(static_cast<uint32_t>(packet.size()));
    stream.insert(stream.end(), reinterpret_cast<const uint8_t*>(&length), reinterpret_cast<const uint8_t*>(&length) + 4);
    stream.insert(stream.end(), packet.begin(), packet.end());
  }
  REQUIRE(::write(fd, stream.data(), stream.size()) == static_cast<ssize_t>(stream.size()));
  pollfd p{fd, POLLIN, 0};
  REQUIRE(::poll(&p, 1, 3000) == 1);
  uint8_t reply[256];
  const ssize_t n = ::read(fd, reply, sizeof reply);
  REQUIRE(n == 4 + 20);  // "/spindle/pong" padded to 16 bytes, "," padded to 4
  CHECK(reply[3] == 20);
  CHECK(std::string(reinterpret_cast<char*>(reply + 4)) == "/spindle/pong");
  ::close(fd);
}

TEST_CASE("a subscription pushes status at the asked rate over the network", "[control][net]") {
  RecordingTarget target;
  OscServer server(target, {-1, "127.0.0.1"});
  std::string error;
  REQUIRE(server.start(error));
  Receiver receiver;
  receiver.sendTo(server.port(), {"/spindle/subscribe", {OscValue::f(10)}});
  const auto pushed = receiver.collect(2000);
  CHECK(pushed.size() >= 18);
  CHECK(pushed.size() <= 22);
  for (const auto& m : pushed) CHECK(m.path == "/spindle/status");
  receiver.sendTo(server.port(), {"/spindle/unsubscribe", {}});
  receiver.collect(200);
  CHECK(receiver.collect(500).empty());
}

}  // namespace osc_server_tests
