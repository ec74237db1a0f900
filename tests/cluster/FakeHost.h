#pragma once
// A stand-in remote Spindle for the cluster and GUI tests: a UDP socket on 127.0.0.1
// that receives what a master's Hosts send it and answers as a Spindle would.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "control/OscDispatcher.h"
#include "control/OscMessage.h"

namespace spindle::test {

using namespace std::chrono_literals;

// A UDP socket on 127.0.0.1 that receives what the master sends and answers it.
struct FakeHost {
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in self{}, master{};
  control::OscDispatcher dispatcher;

  FakeHost() {
    self.sin_family = AF_INET;
    self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof self;
    std::string error;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&self), sizeof self) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&self), &length) != 0 || !dispatcher.create(error))
      throw std::runtime_error("cannot open the fake host's socket");
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

}  // namespace spindle::test
