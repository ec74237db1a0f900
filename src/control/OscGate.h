#pragma once
// OscGate: the OSC server's door. Every packet passes it before it is dispatched:
//
//   packet ─► /spindle/signed? ─yes─► secret set? ─► well-formed? ─► MAC? ─► for me? ─► counter? ─► inner packet
//                 │ no                   │ no            │ no           │ no      │ no       │ stale, replayed,
//                 ▼                      ▼               ▼              ▼         ▼          ▼ too_many_senders
//   signing required for this peer?   refused: bad_mac (all three)    misaddressed   refused
//     yes: refused (unsigned)   no: the packet as it came
//
// Signing is required when a secret is set and the peer is not on loopback, or for
// every peer with requireSigned. Without a secret every unsigned packet passes.
// A signed packet is for this server when its receiver is the address and port it came
// in on ("10.0.0.2:9951", Peer::localEndpoint) or the identity the server was given
// (--osc-identity). Replies to a signed request are signed with the same secret, from
// the receiver the request named to the request's sender (OscAuth.h).
//
// Thread: the control thread.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "control/OscAuth.h"
#include "control/Peer.h"

namespace spindle::control {

struct OscAuthOptions {
  Bytes secret;                // empty: no secret (unsigned packets pass)
  bool requireSigned = false;  // --osc-require-signed: loopback peers must sign too
  std::string identity;        // --osc-identity: a receiver name this server answers to besides its address
};

class OscGate {
 public:
  struct Verdict {
    uint8_t* data = nullptr;  // the packet to dispatch (inside the one given)
    std::size_t size = 0;
    bool verified = false;    // it was signed and checked: its replies are signed
    SignedRoute route;        // verified: its sender and the receiver it named
    std::optional<AuthRefusal> refused;
    std::string reason;       // why, for /spindle/error (never the secret or a MAC)
  };

  explicit OscGate(OscAuthOptions options) : options_(std::move(options)) {}

  Verdict admit(const Peer& from, uint8_t* data, std::size_t size, int64_t nowUs);
  // `packet` signed for a reply along `route` (the reply's sender and receiver); counters
  // strictly increase even when the clock stalls. Empty when libcrypto fails.
  Bytes signReply(const Bytes& packet, const SignedRoute& route, int64_t nowUs);
  bool hasSecret() const noexcept { return !options_.secret.empty(); }
  // "open" (no secret), "signed_remote" (loopback may send unsigned), "signed_all".
  const char* mode() const noexcept;

 private:
  Verdict checkSigned(const Peer& from, uint8_t* data, std::size_t size, int64_t nowUs);
  bool isForMe(const std::string& receiver, const Peer& from) const;

  OscAuthOptions options_;
  ReplayGuard replays_;
  uint64_t replyCounter_ = 0;
};

// Whether binding OSC to `address` may go ahead: a non-loopback address needs a secret
// or an explicit --osc-insecure. The error names both ways out.
bool oscExposureAllowed(const std::string& address, bool hasSecret, bool insecure, std::string& error);

}  // namespace spindle::control
