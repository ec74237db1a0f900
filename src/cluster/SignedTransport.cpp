#include "cluster/SignedTransport.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "control/OscGate.h"

namespace spindle::cluster {

bool SignedTransport::send(const std::string& path, lo_message message) {
  std::size_t size = lo_message_length(message, path.c_str());
  std::vector<uint8_t> packet(size);
  if (!lo_message_serialise(message, path.c_str(), packet.data(), &size)) return false;
  const control::Bytes bytes = signBytes(packet.data(), size, control::nowMicros());
  return !bytes.empty() && socket_.sendBytes(bytes.data(), bytes.size());
}

control::Bytes SignedTransport::sign(const control::OscMessage& message, int64_t nowUs) {
  const std::vector<uint8_t> packet = control::serialise(message);
  return signBytes(packet.data(), packet.size(), nowUs);
}

control::Bytes SignedTransport::signBytes(const uint8_t* packet, std::size_t size, int64_t nowUs) {
  counter_ = std::max(counter_ + 1, static_cast<uint64_t>(nowUs));
  return control::signPacket(secret_, route_, counter_, packet, size);
}

std::optional<ReplyVerifier::Packet> ReplyVerifier::admit(uint8_t* data, std::size_t size, int64_t nowUs) {
  using control::AuthRefusal;
  if (!control::isSignedPacket(data, size)) return refuse(AuthRefusal::Unsigned);
  std::string error;
  const auto packet = control::parseSigned(data, size, error);
  if (!packet || !control::macMatches(secret_, *packet)) return refuse(AuthRefusal::BadMac);
  if (packet->sender != route_.sender || packet->receiver != route_.receiver) return refuse(AuthRefusal::Misaddressed);
  if (const auto why = replays_.accept(packet->sender, packet->counter, nowUs)) return refuse(*why);
  ++verified_;
  return Packet{packet->packet, packet->packetSize};
}

std::optional<ReplyVerifier::Packet> ReplyVerifier::refuse(control::AuthRefusal why) {
  ++refused_[static_cast<std::size_t>(why)];
  return std::nullopt;
}

uint64_t ReplyVerifier::refusedTotal() const noexcept {
  return std::accumulate(refused_.begin(), refused_.end(), uint64_t{0});
}

}  // namespace spindle::cluster
