#include "control/OscGate.h"

#include <algorithm>

namespace spindle::control {

OscGate::Verdict OscGate::admit(const Peer& from, uint8_t* data, std::size_t size, int64_t nowUs) {
  if (isSignedPacket(data, size)) return checkSigned(data, size, nowUs);
  Verdict v{data, size, false, std::nullopt, {}};
  if (hasSecret() && (options_.requireSigned || !from.loopback())) {
    v.refused = AuthRefusal::Unsigned;
    v.reason = "unsigned OSC refused: this Spindle only takes signed messages from " +
               std::string(options_.requireSigned ? "every peer" : "other hosts") + " (docs/osc.md, Security)";
  }
  return v;
}

OscGate::Verdict OscGate::checkSigned(uint8_t* data, std::size_t size, int64_t nowUs) {
  Verdict v;
  if (!hasSecret()) {
    v.refused = AuthRefusal::BadMac;
    v.reason = "signed OSC refused: this Spindle has no secret (--osc-secret-file)";
    return v;
  }
  std::string error;
  const auto packet = parseSigned(data, size, error);
  if (!packet || !macMatches(options_.secret, *packet)) {
    v.refused = AuthRefusal::BadMac;
    v.reason = packet ? "signed OSC refused: the signature does not match (wrong secret or altered packet)" : error;
    return v;
  }
  v.refused = replays_.accept(packet->identity, packet->counter, nowUs);
  if (v.refused) {
    v.reason = *v.refused == AuthRefusal::Stale
                   ? "signed OSC refused: counter more than 30 s from this host's clock (check the clocks)"
                   : "signed OSC refused: counter not above the last one from '" + packet->identity + "' (replayed)";
    return v;
  }
  v.data = packet->packet;
  v.size = packet->packetSize;
  v.verified = true;
  return v;
}

Bytes OscGate::signReply(const Bytes& packet, int64_t nowUs) {
  replyCounter_ = std::max(replyCounter_ + 1, static_cast<uint64_t>(std::max<int64_t>(nowUs, 0)));
  return signPacket(options_.secret, kServerIdentity, replyCounter_, packet.data(), packet.size());
}

const char* OscGate::mode() const noexcept {
  if (!hasSecret()) return "open";
  return options_.requireSigned ? "signed_all" : "signed_remote";
}

bool oscExposureAllowed(const std::string& address, bool hasSecret, bool insecure, std::string& error) {
  const auto peer = Peer::udp(address, 1);
  if (!peer || peer->loopback() || hasSecret || insecure) return true;  // a bad address fails at bind
  error = "--osc-bind " + address +
          " opens OSC to the network without a secret: give --osc-secret-file FILE (signed control, "
          "docs/osc.md), or --osc-insecure to let anyone who reaches the port control Spindle";
  return false;
}

}  // namespace spindle::control
