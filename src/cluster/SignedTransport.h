#pragma once
// Signed control between a master and its hosts (docs/osc.md, "Security"): what the
// master sends is signed with the cluster secret, from the master's identity to that one
// host (its address and port, "10.0.0.2:9951"), and what a host sends back is trusted
// only when it is signed from that host to the master and verifies. So a packet captured
// on its way to one host is refused by every other, and one host's replies are never
// read as another's.
//
//   RemoteHost ─send─► SignedTransport ─ /spindle/signed (master → host, counter, packet, mac) ─► host
//   host ─ /spindle/signed (host → master, ...) ─► ReplyVerifier ─ inner packet ─► RemoteHost
//                                                     └ unsigned / bad MAC / misaddressed / replayed / stale:
//                                                       counted, dropped
//
// A host's server signs its replies to a signed request, and the status it pushes to a
// subscriber whose subscription was signed (control/OscGate.h), so every message a host
// sends to a signing master comes back signed.
//
// Thread: one at a time (the hosts thread, or the control or gui thread under Hosts' lock).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cluster/OscTransport.h"
#include "cluster/UdpTransport.h"
#include "control/OscAuth.h"

namespace spindle::cluster {

// Sends each message as one signed packet through `socket`. The counter is the clock in
// microseconds, kept strictly increasing when two messages fall in one microsecond.
class SignedTransport final : public OscTransport {
 public:
  // `route`: the master's identity and the host's receiver name.
  SignedTransport(UdpTransport& socket, control::Bytes secret, control::SignedRoute route)
      : socket_(socket), secret_(std::move(secret)), route_(std::move(route)) {}

  bool send(const std::string& path, lo_message message) override;
  // `message` signed with the next counter at `nowUs` (what send() puts on the wire).
  control::Bytes sign(const control::OscMessage& message, int64_t nowUs);

 private:
  control::Bytes signBytes(const uint8_t* packet, std::size_t size, int64_t nowUs);

  UdpTransport& socket_;
  control::Bytes secret_;
  control::SignedRoute route_;
  uint64_t counter_ = 0;
};

// Checks what one host sends to a signing master: a packet signed with the cluster
// secret along `route` (from the host's receiver name to the master's identity), with a
// fresh counter.
class ReplyVerifier {
 public:
  struct Packet {
    uint8_t* data = nullptr;
    std::size_t size = 0;
  };

  ReplyVerifier(control::Bytes secret, control::SignedRoute route)
      : secret_(std::move(secret)), route_(std::move(route)) {}

  // The inner packet of a reply that verifies (it points into `data`), or nullopt when
  // the reply is refused; each refusal is counted by its reason.
  std::optional<Packet> admit(uint8_t* data, std::size_t size, int64_t nowUs);
  uint64_t verified() const noexcept { return verified_; }
  uint64_t refused(control::AuthRefusal why) const noexcept { return refused_[static_cast<std::size_t>(why)]; }
  uint64_t refusedTotal() const noexcept;

 private:
  std::optional<Packet> refuse(control::AuthRefusal why);

  control::Bytes secret_;
  control::SignedRoute route_;
  control::ReplayGuard replays_;
  uint64_t verified_ = 0;
  std::array<uint64_t, control::kAuthRefusals> refused_{};
};

}  // namespace spindle::cluster
