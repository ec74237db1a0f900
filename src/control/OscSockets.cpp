// OscServer, part two: binding, TCP framing and sending replies.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "control/OscServer.h"

namespace spindle::control {

int bindSocket(const std::string& address, int port, int type, std::string& error) {
  const auto peer = Peer::udp(address, port == 0 ? 1 : port);  // parses the address
  if (!peer) {
    error = "--osc-bind takes a numeric IPv4 or IPv6 address, not '" + address + "'";
    return -1;
  }
  Peer local = *peer;
  if (port == 0) reinterpret_cast<sockaddr_in*>(&local.address)->sin_port = 0;  // same offset for v6
  const int fd = ::socket(local.address.ss_family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  const int one = 1;
  if (fd >= 0 && type == SOCK_STREAM) ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd >= 0 && local.address.ss_family == AF_INET6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (fd >= 0 && type == SOCK_DGRAM) {
    if (local.address.ss_family == AF_INET) ::setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof one);
    else ::setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one, sizeof one);
  }
  if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr*>(&local.address), local.length) != 0 ||
      (type == SOCK_STREAM && ::listen(fd, 16) != 0)) {
    error = std::string("cannot bind OSC ") + (type == SOCK_STREAM ? "TCP" : "UDP") + " port " +
            std::to_string(port) + " on " + address + ": " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

int localPort(int fd) {
  Peer local;
  local.length = sizeof local.address;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local.address), &local.length) != 0) return 0;
  return local.port();
}

ssize_t receiveDatagram(int fd, std::vector<uint8_t>& buffer, Peer& from, int port) {
  iovec data{buffer.data(), buffer.size()};
  alignas(cmsghdr) uint8_t control[128];
  msghdr message{};
  message.msg_name = &from.address;
  message.msg_namelen = sizeof from.address;
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  const ssize_t size = ::recvmsg(fd, &message, MSG_DONTWAIT);
  if (size < 0) return size;
  from.length = message.msg_namelen;
  for (cmsghdr* c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c)) {
    if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
      auto& to = *reinterpret_cast<sockaddr_in*>(&from.local);
      to.sin_family = AF_INET;
      to.sin_port = htons(static_cast<uint16_t>(port));
      to.sin_addr = reinterpret_cast<const in_pktinfo*>(CMSG_DATA(c))->ipi_addr;
      from.localLength = sizeof to;
    } else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO) {
      auto& to = *reinterpret_cast<sockaddr_in6*>(&from.local);
      to.sin6_family = AF_INET6;
      to.sin6_port = htons(static_cast<uint16_t>(port));
      to.sin6_addr = reinterpret_cast<const in6_pktinfo*>(CMSG_DATA(c))->ipi6_addr;
      from.localLength = sizeof to;
    }
  }
  return size;
}

void OscServer::acceptTcp() {
  Stream stream;
  stream.peer.length = sizeof stream.peer.address;
  stream.fd = ::accept4(tcp_, reinterpret_cast<sockaddr*>(&stream.peer.address), &stream.peer.length,
                        SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (stream.fd < 0) return;
  stream.peer.localLength = sizeof stream.peer.local;
  if (::getsockname(stream.fd, reinterpret_cast<sockaddr*>(&stream.peer.local), &stream.peer.localLength) != 0)
    stream.peer.localLength = 0;
  if (streams_.size() >= kMaxTcpClients) {
    ::close(stream.fd);
    return;
  }
  const int one = 1;
  ::setsockopt(stream.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  stream.peer.stream = stream.fd;
  streams_.push_back(std::move(stream));
}

// OSC 1.0 stream framing, as liblo's TCP client sends it: a 32-bit big-endian length,
// then the packet. Returns false when the peer closed or broke the framing.
bool OscServer::readStream(Stream& stream) {
  uint8_t chunk[8192];
  const ssize_t got = ::read(stream.fd, chunk, sizeof chunk);
  if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) return false;
  if (got > 0) stream.buffer.insert(stream.buffer.end(), chunk, chunk + got);
  std::size_t used = 0;
  while (stream.buffer.size() - used >= 4) {
    uint32_t length = 0;
    std::memcpy(&length, stream.buffer.data() + used, 4);
    length = ntohl(length);
    if (length > kMaxPacket) {
      core_.reportMalformed(stream.peer, "TCP packet of " + std::to_string(length) + " bytes is too large");
      return false;
    }
    if (stream.buffer.size() - used - 4 < length) break;
    std::copy_n(stream.buffer.data() + used + 4, length, receive_.data());
    dispatch(stream.peer, receive_.data(), length);
    used += 4 + length;
  }
  stream.buffer.erase(stream.buffer.begin(), stream.buffer.begin() + static_cast<std::ptrdiff_t>(used));
  return true;
}

void OscServer::closeStream(std::size_t index) {
  core_.forgetStream(streams_[index].fd);
  ::close(streams_[index].fd);
  streams_.erase(streams_.begin() + static_cast<std::ptrdiff_t>(index));
}

// Never blocks: a reply the socket cannot take now is dropped (UDP semantics, also
// for a TCP peer that stopped reading).
void OscServer::send(const Peer& to, const OscMessage& message) {
  std::vector<uint8_t> packet = serialise(message);
  if (to.sign && gate_.hasSecret()) packet = gate_.signReply(packet, {to.signedFor, to.signedBy}, nowMicros());
  if (packet.empty()) return;  // libcrypto failed: nothing goes out unsigned to a signing peer
  if (to.stream >= 0) {
    std::vector<uint8_t> framed(4 + packet.size());
    const uint32_t length = htonl(static_cast<uint32_t>(packet.size()));
    std::memcpy(framed.data(), &length, 4);
    std::copy(packet.begin(), packet.end(), framed.begin() + 4);
    [[maybe_unused]] auto ignored = ::send(to.stream, framed.data(), framed.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    return;
  }
  if (udp_ >= 0 && to.length > 0)
    ::sendto(udp_, packet.data(), packet.size(), MSG_DONTWAIT, reinterpret_cast<const sockaddr*>(&to.address),
             to.length);
}

}  // namespace spindle::control
