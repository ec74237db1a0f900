#pragma once
// OscGate: the OSC server's door. Every packet passes it before it is dispatched:
//
//   packet ─► /spindle/signed? ─yes─► secret set? ─► well-formed? ─► MAC? ─► counter? ─► inner packet
//                 │ no                   │ no            │ no           │ no     │ stale / replayed
//                 ▼                      ▼               ▼              ▼        ▼
//   signing required for this peer?   refused: bad_mac (all three)         refused: stale / replayed
//     yes: refused (unsigned)   no: the packet as it came
//
// Signing is required when a secret is set and the peer is not on loopback, or for
// every peer with requireSigned. Without a secret every unsigned packet passes, as
// before there were secrets. Replies to a signed request are signed with the same
// secret under the identity kServerIdentity.
//
// Thread: the control thread.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "control/OscAuth.h"
#include "control/Peer.h"

namespace spindle::control {

inline constexpr const char* kServerIdentity = "spindle";

struct OscAuthOptions {
  Bytes secret;                // empty: no secret (unsigned packets pass)
  bool requireSigned = false;  // --osc-require-signed: loopback peers must sign too
};

class OscGate {
 public:
  struct Verdict {
    uint8_t* data = nullptr;  // the packet to dispatch (inside the one given)
    std::size_t size = 0;
    bool verified = false;    // it was signed and checked: its replies are signed
    std::optional<AuthRefusal> refused;
    std::string reason;       // why, for /spindle/error (never the secret or a MAC)
  };

  explicit OscGate(OscAuthOptions options) : options_(std::move(options)) {}

  Verdict admit(const Peer& from, uint8_t* data, std::size_t size, int64_t nowUs);
  // `packet` signed for a reply; counters strictly increase even when the clock stalls.
  Bytes signReply(const Bytes& packet, int64_t nowUs);
  bool hasSecret() const noexcept { return !options_.secret.empty(); }
  // "open" (no secret), "signed_remote" (loopback may send unsigned), "signed_all".
  const char* mode() const noexcept;

 private:
  Verdict checkSigned(uint8_t* data, std::size_t size, int64_t nowUs);

  OscAuthOptions options_;
  ReplayGuard replays_;
  uint64_t replyCounter_ = 0;
};

// Whether binding OSC to `address` may go ahead: a non-loopback address needs a secret
// or an explicit --osc-insecure. The error names both ways out.
bool oscExposureAllowed(const std::string& address, bool hasSecret, bool insecure, std::string& error);

}  // namespace spindle::control
