// ControlCore, part three: what the OSC gate refused, counted and reported.
#include "control/ControlCore.h"

namespace spindle::control {

void ControlCore::refuse(const Peer& from, AuthRefusal why, const std::string& reason) {
  ++refusals_[static_cast<std::size_t>(why)];
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
  OscMessage m{"/spindle/auth", {OscValue::s(authMode_), OscValue::h(static_cast<int64_t>(verified_))}};
  for (uint64_t count : refusals_) m.args.push_back(OscValue::h(static_cast<int64_t>(count)));
  return m;
}

}  // namespace spindle::control
