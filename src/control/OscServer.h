#pragma once
// OscServer: the control thread. Owns the UDP and TCP sockets it binds itself
// (127.0.0.1 unless told otherwise: liblo 0.31 binds every interface, so liblo never
// touches the network here), polls them and hands each packet to
// lo_server_dispatch_data() on an lo_server bound to nothing but a unix socket that is
// unlinked at once. Decoded messages go to the ControlCore; replies leave through the
// UDP socket (source port = the server's port) or back on the TCP connection.
//
//   UDP datagram ───────────────┐
//   TCP: [u32 BE length][packet] ┼─► OscGate ─► lo_server_dispatch_data ─► ControlCore::handle
//   NSM socket (NsmClient) ─────┘                                  │ replies
//   eventfd (loader thread's load events, stop) ─► ControlCore::tick ◄┘ subscriptions
//
// OscGate (OscGate.h) refuses what must be signed and is not, or is signed wrongly, and
// unwraps signed packets; replies to a verified request are signed. Binding a
// non-loopback address needs a secret, or `insecure`.
//
// Threads: start()/stop() from the owner's thread; everything else runs on the
// control thread it starts. `port` 0 binds no OSC sockets (the thread still runs for
// NSM); -1 picks a free port (tests).
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "control/ControlCore.h"
#include "control/OscDispatcher.h"
#include "control/OscGate.h"

namespace spindle::control {

class NsmClient;

struct OscServerOptions {
  OscServerOptions(int portNumber = 9951, std::string address = "127.0.0.1", OscAuthOptions authOptions = {},
                   bool insecureBind = false)
      : port(portNumber), bindAddress(std::move(address)), auth(std::move(authOptions)), insecure(insecureBind) {}

  int port;
  std::string bindAddress;  // --osc-bind: a numeric IPv4/IPv6 address, 0.0.0.0 or ::
  OscAuthOptions auth;      // --osc-secret-file, --osc-require-signed
  bool insecure;            // --osc-insecure: a network address without a secret
};

inline constexpr std::size_t kMaxPacket = 65536;
inline constexpr std::size_t kMaxTcpClients = 16;

class OscServer final : public ReplySink {
 public:
  OscServer(ControlTarget& target, OscServerOptions options);
  ~OscServer();
  OscServer(const OscServer&) = delete;
  OscServer& operator=(const OscServer&) = delete;

  // Owner's thread, before start(): NSM messages are then handled on the control thread.
  void attachNsm(NsmClient& nsm) { nsm_ = &nsm; }
  [[nodiscard]] bool start(std::string& error);
  void stop();
  int port() const noexcept { return boundPort_; }  // the bound port, 0 when off

  // Control thread only (and the owner before start() / after stop()).
  ControlCore& core() noexcept { return core_; }
  void send(const Peer& to, const OscMessage& message) override;
  uint64_t packets() const noexcept { return packets_.load(std::memory_order_relaxed); }

 private:
  struct Stream {
    int fd = -1;
    Peer peer;
    std::vector<uint8_t> buffer;
  };
  bool bindSockets(std::string& error);
  void run();
  void pollOnce(int timeoutMs);
  void readUdp();
  void acceptTcp();
  bool readStream(Stream& stream);  // false: close it
  void closeStream(std::size_t index);
  void dispatch(const Peer& from, uint8_t* data, std::size_t size);
  void wake() noexcept;

  OscServerOptions options_;
  ControlCore core_;
  NsmClient* nsm_ = nullptr;
  OscDispatcher dispatcher_;
  OscGate gate_;
  int udp_ = -1, tcp_ = -1, wakeFd_ = -1, boundPort_ = 0;
  std::vector<Stream> streams_;
  std::atomic<bool> running_{false};
  std::atomic<uint64_t> packets_{0};
  std::vector<uint8_t> receive_ = std::vector<uint8_t>(kMaxPacket);
  std::thread thread_;
};

// The options --osc-port, --osc-bind, --osc-secret-file, --osc-require-signed and
// --osc-insecure (or the window's settings) ask for, the secret read from its file;
// nullopt with `error` (naming the file) when the secret cannot be used.
std::optional<OscServerOptions> oscServerOptions(int port, const std::string& bindAddress, const std::string& secretFile,
                                                 bool requireSigned, bool insecure, std::string& error);

// Binds a socket of `type` (SOCK_DGRAM, SOCK_STREAM) to address:port; -1 with `error`.
// A UDP socket is asked for each datagram's destination address (IP_PKTINFO).
int bindSocket(const std::string& address, int port, int type, std::string& error);
// The local port a socket is bound to.
int localPort(int fd);
// One datagram from `fd` into `buffer` without waiting: its size (-1: none), its source
// in `from` and its destination (the address it was sent to, at `port`) in from.local.
ssize_t receiveDatagram(int fd, std::vector<uint8_t>& buffer, Peer& from, int port);

}  // namespace spindle::control
