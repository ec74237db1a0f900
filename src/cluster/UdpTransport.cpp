#include "cluster/UdpTransport.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "control/Peer.h"

namespace spindle::cluster {

namespace {

bool isLoopback(const sockaddr_storage& a) {
  if (a.ss_family == AF_INET)
    return (ntohl(reinterpret_cast<const sockaddr_in&>(a).sin_addr.s_addr) >> 24) == 127;
  return IN6_IS_ADDR_LOOPBACK(&reinterpret_cast<const sockaddr_in6&>(a).sin6_addr);
}

// The local address to bind: the loopback for a host on this machine, else any; port 0.
sockaddr_storage localFor(const sockaddr_storage& host, socklen_t& length) {
  sockaddr_storage local{};
  local.ss_family = host.ss_family;
  if (host.ss_family == AF_INET) {
    auto& v4 = reinterpret_cast<sockaddr_in&>(local);
    v4.sin_addr.s_addr = htonl(isLoopback(host) ? INADDR_LOOPBACK : INADDR_ANY);
    length = sizeof(sockaddr_in);
  } else {
    reinterpret_cast<sockaddr_in6&>(local).sin6_addr = isLoopback(host) ? in6addr_loopback : in6addr_any;
    length = sizeof(sockaddr_in6);
  }
  return local;
}

bool samePeer(const sockaddr_storage& a, const sockaddr_storage& b) {
  if (a.ss_family != b.ss_family) return false;
  if (a.ss_family == AF_INET) {
    const auto &x = reinterpret_cast<const sockaddr_in&>(a), &y = reinterpret_cast<const sockaddr_in&>(b);
    return x.sin_port == y.sin_port && x.sin_addr.s_addr == y.sin_addr.s_addr;
  }
  const auto &x = reinterpret_cast<const sockaddr_in6&>(a), &y = reinterpret_cast<const sockaddr_in6&>(b);
  return x.sin6_port == y.sin6_port && std::memcmp(&x.sin6_addr, &y.sin6_addr, sizeof x.sin6_addr) == 0;
}

}  // namespace

UdpTransport::~UdpTransport() {
  if (fd_ >= 0) ::close(fd_);
}

bool UdpTransport::open(const std::string& address, int port, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(address.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0 || !found) {
    error = "cannot resolve host address '" + address + "': " + ::gai_strerror(rc);
    return false;
  }
  std::memcpy(&host_, found->ai_addr, found->ai_addrlen);
  hostLength_ = found->ai_addrlen;
  ::freeaddrinfo(found);
  socklen_t localLength = 0;
  const sockaddr_storage local = localFor(host_, localLength);
  fd_ = ::socket(host_.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0 || ::bind(fd_, reinterpret_cast<const sockaddr*>(&local), localLength) != 0) {
    error = "cannot open a UDP socket for host " + address + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool UdpTransport::send(const std::string& path, lo_message message) {
  std::size_t size = lo_message_length(message, path.c_str());
  std::vector<uint8_t> bytes(size);
  if (!lo_message_serialise(message, path.c_str(), bytes.data(), &size)) return false;
  return sendBytes(bytes.data(), size);
}

bool UdpTransport::sendBytes(const uint8_t* bytes, std::size_t size) {
  return ::sendto(fd_, bytes, size, 0, reinterpret_cast<const sockaddr*>(&host_), hostLength_) ==
         static_cast<ssize_t>(size);
}

std::optional<std::size_t> UdpTransport::receive(uint8_t* buffer, std::size_t capacity) {
  for (;;) {
    sockaddr_storage from{};
    socklen_t length = sizeof from;
    const ssize_t got = ::recvfrom(fd_, buffer, capacity, 0, reinterpret_cast<sockaddr*>(&from), &length);
    if (got < 0) return std::nullopt;
    if (samePeer(from, host_)) return static_cast<std::size_t>(got);
  }
}

int UdpTransport::localPort() const {
  sockaddr_storage local{};
  socklen_t length = sizeof local;
  if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&local), &length) != 0) return 0;
  return ntohs(local.ss_family == AF_INET ? reinterpret_cast<sockaddr_in&>(local).sin_port
                                          : reinterpret_cast<sockaddr_in6&>(local).sin6_port);
}

std::string UdpTransport::endpoint() const {
  control::Peer host;
  host.address = host_;
  host.length = hostLength_;
  return host.endpoint();
}

}  // namespace spindle::cluster
