#pragma once
// Peer: where an OSC message came from and where its replies go: a UDP address, or a
// TCP connection of the OSC server (replies go back on it, framed).
//
// Thread: any; a plain value.
#include <sys/socket.h>

#include <optional>
#include <string>

namespace spindle::control {

struct Peer {
  sockaddr_storage address{};
  socklen_t length = 0;  // 0: no address (e.g. an NSM-initiated load: nobody to reply to)
  int stream = -1;       // TCP connection (the OSC server's fd), -1 for UDP
  // The address and port it reached this server on (the datagram's destination, the TCP
  // connection's local end); localLength 0 when not known.
  sockaddr_storage local{};
  socklen_t localLength = 0;
  // It sent a verified signed request: its replies are signed (OscGate), from the
  // receiver that request named (signedFor) to its sender (signedBy).
  bool sign = false;
  std::string signedBy, signedFor;

  bool valid() const noexcept { return length > 0 || stream >= 0; }
  std::string host() const;  // numeric address, "" when none
  int port() const noexcept;
  bool loopback() const noexcept;  // 127.0.0.0/8, ::1 or ::ffff:127.x.y.z
  std::string toString() const;  // "udp 127.0.0.1:9000", "tcp 127.0.0.1:41234"
  // "10.0.0.2:9951", "[fd00::2]:9951": the name of an address a signed packet is sent to
  // (OscAuth.h); "" when none.
  std::string endpoint() const;
  std::string localEndpoint() const;
  bool operator==(const Peer& other) const noexcept;  // the address only, not `sign`

  // A UDP peer at a numeric IPv4/IPv6 address; nullopt when `host` is not one.
  static std::optional<Peer> udp(const std::string& host, int port);
};

}  // namespace spindle::control
