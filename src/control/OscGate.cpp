#include "control/OscGate.h"

#include <algorithm>

namespace spindle::control {

namespace {

std::string refusalReason(AuthRefusal why, const std::string& sender) {
  switch (why) {
    case AuthRefusal::Stale: return "signed OSC refused: counter more than 30 s from this host's clock (check the clocks)";
    case AuthRefusal::TooManySenders:
      return "signed OSC refused: " + std::to_string(kMaxSenders) + " senders signed in the last 30 s; no room for '" +
             sender + "'";
    default: return "signed OSC refused: counter not above the last one from '" + sender + "' (replayed)";
  }
}

}  // namespace

OscGate::Verdict OscGate::admit(const Peer& from, uint8_t* data, std::size_t size, int64_t nowUs) {
  if (isSignedPacket(data, size)) return checkSigned(from, data, size, nowUs);
  Verdict v{data, size, false, {}, std::nullopt, {}};
  if (hasSecret() && (options_.requireSigned || !from.loopback())) {
    v.refused = AuthRefusal::Unsigned;
    v.reason = "unsigned OSC refused: this Spindle only takes signed messages from " +
               std::string(options_.requireSigned ? "every peer" : "other hosts") + " (docs/osc.md, Security)";
  }
  return v;
}

OscGate::Verdict OscGate::checkSigned(const Peer& from, uint8_t* data, std::size_t size, int64_t nowUs) {
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
  if (!isForMe(packet->receiver, from)) {
    v.refused = AuthRefusal::Misaddressed;
    v.reason = "signed OSC refused: it was signed for '" + packet->receiver + "', not this Spindle (" +
               (from.localEndpoint().empty() ? options_.identity : from.localEndpoint()) + ")";
    return v;
  }
  v.refused = replays_.accept(packet->sender, packet->counter, nowUs);
  if (v.refused) {
    v.reason = refusalReason(*v.refused, packet->sender);
    return v;
  }
  v.data = packet->packet;
  v.size = packet->packetSize;
  v.verified = true;
  v.route = {packet->sender, packet->receiver};
  return v;
}

bool OscGate::isForMe(const std::string& receiver, const Peer& from) const {
  if (!options_.identity.empty() && receiver == options_.identity) return true;
  const std::string local = from.localEndpoint();
  return !local.empty() && receiver == local;
}

Bytes OscGate::signReply(const Bytes& packet, const SignedRoute& route, int64_t nowUs) {
  replyCounter_ = std::max(replyCounter_ + 1, static_cast<uint64_t>(std::max<int64_t>(nowUs, 0)));
  return signPacket(options_.secret, route, replyCounter_, packet.data(), packet.size());
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
