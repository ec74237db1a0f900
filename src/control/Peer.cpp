#include "control/Peer.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <cstring>

namespace spindle::control {

namespace {

std::string numericHost(const sockaddr_storage& address, socklen_t length) {
  char text[NI_MAXHOST] = {};
  if (length == 0) return {};
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&address), length, text, sizeof text, nullptr, 0,
                  NI_NUMERICHOST) != 0)
    return {};
  return text;
}

int portOf(const sockaddr_storage& address) noexcept {
  if (address.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
  if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
  return 0;
}

std::string endpointOf(const sockaddr_storage& address, socklen_t length) {
  const std::string host = numericHost(address, length);
  if (host.empty()) return {};
  const std::string port = std::to_string(portOf(address));
  return address.ss_family == AF_INET6 ? "[" + host + "]:" + port : host + ":" + port;
}

}  // namespace

std::string Peer::host() const { return numericHost(address, length); }

int Peer::port() const noexcept { return portOf(address); }

std::string Peer::endpoint() const { return endpointOf(address, length); }

std::string Peer::localEndpoint() const { return endpointOf(local, localLength); }

bool Peer::loopback() const noexcept {
  if (address.ss_family == AF_INET)
    return (ntohl(reinterpret_cast<const sockaddr_in*>(&address)->sin_addr.s_addr) >> 24) == 127;
  if (address.ss_family != AF_INET6) return false;
  const in6_addr& a = reinterpret_cast<const sockaddr_in6*>(&address)->sin6_addr;
  return IN6_IS_ADDR_LOOPBACK(&a) || (IN6_IS_ADDR_V4MAPPED(&a) && a.s6_addr[12] == 127);
}

std::string Peer::toString() const {
  return std::string(stream >= 0 ? "tcp " : "udp ") + host() + ":" + std::to_string(port());
}

bool Peer::operator==(const Peer& other) const noexcept {
  if (stream >= 0 || other.stream >= 0) return stream == other.stream;
  return length == other.length && std::memcmp(&address, &other.address, length) == 0;
}

std::optional<Peer> Peer::udp(const std::string& hostText, int portNumber) {
  Peer peer;
  if (portNumber <= 0 || portNumber > 65535) return std::nullopt;
  const auto port16 = htons(static_cast<uint16_t>(portNumber));
  auto* v4 = reinterpret_cast<sockaddr_in*>(&peer.address);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&peer.address);
  if (inet_pton(AF_INET, hostText.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = port16;
    peer.length = sizeof(sockaddr_in);
  } else if (inet_pton(AF_INET6, hostText.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = port16;
    peer.length = sizeof(sockaddr_in6);
  } else {
    return std::nullopt;
  }
  return peer;
}

}  // namespace spindle::control
