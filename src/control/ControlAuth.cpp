// ControlCore, part three: what the OSC gate refused, counted and reported.
#include "control/ControlCore.h"

namespace spindle::control {

void ControlCore::refuse(const Peer& from, AuthRefusal why, const std::string& reason) {
  refusals_[static_cast<std::size_t>(why)].fetch_add(1, std::memory_order_relaxed);
  const auto now = Clock::now();
  if (now - refusalWindow_ >= std::chrono::seconds(1)) {
    refusalWindow_ = now;
    refusalReplies_ = 0;
  }
  if (refusalReplies_ >= kRefusalRepliesPerSecond) return;
  ++refusalReplies_;
  Peer to = from;
  to.sign = false;  // an unverified peer: the error goes back unsigned, to where it came from
  replies_.send(to, {"/spindle/error", {OscValue::s(""), OscValue::s(reason)}});
}

OscMessage ControlCore::authMessage() const {
  OscMessage m{"/spindle/auth", {OscValue::s(authMode_), OscValue::h(static_cast<int64_t>(verified()))}};
  for (std::size_t k = 0; k < kAuthRefusals; ++k)
    m.args.push_back(OscValue::h(static_cast<int64_t>(refused(static_cast<AuthRefusal>(k)))));
  return m;
}

std::string authReport(const ControlCore& core) {
  std::string line = std::to_string(core.verified()) + " signed accepted; refused: ";
  for (std::size_t k = 0; k < kAuthRefusals; ++k) {
    const auto why = static_cast<AuthRefusal>(k);
    line += (k ? ", " : "") + std::to_string(core.refused(why)) + " " + wireName(why);
  }
  return line;
}

}  // namespace spindle::control
