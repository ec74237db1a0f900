#pragma once
// UdpTransport: plain OSC over UDP to one remote Spindle, from a socket of its own on an
// ephemeral port, so the host's replies and pushed status come back to it (Spindle
// replies to the sender's address). The socket binds the loopback address when the
// host is on this machine and every address otherwise (the host's replies must reach
// it); it keeps only datagrams from the host's address and port.
//
// Thread: one at a time (the hosts thread; send() also from the control or gui thread
// under the owner's lock).
#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cluster/OscTransport.h"

namespace spindle::cluster {

class UdpTransport final : public OscTransport {
 public:
  UdpTransport() = default;
  ~UdpTransport() override;
  UdpTransport(const UdpTransport&) = delete;
  UdpTransport& operator=(const UdpTransport&) = delete;

  // Resolves `address` (numeric or a name) and opens the socket; false with `error`.
  [[nodiscard]] bool open(const std::string& address, int port, std::string& error);
  bool send(const std::string& path, lo_message message) override;
  // One datagram of `size` bytes to the host, as given (a signing transport's packet).
  bool sendBytes(const uint8_t* bytes, std::size_t size);
  // One datagram from the host into `buffer`, without waiting; its size, or nullopt
  // when none is waiting.
  std::optional<std::size_t> receive(uint8_t* buffer, std::size_t capacity);
  int fd() const noexcept { return fd_; }
  int localPort() const;
  // The host's resolved address and port, "10.0.0.2:9951" or "[fd00::2]:9951": the
  // receiver a signed packet to it names (control/OscAuth.h).
  std::string endpoint() const;

 private:
  int fd_ = -1;
  sockaddr_storage host_{};
  socklen_t hostLength_ = 0;
};

}  // namespace spindle::cluster
