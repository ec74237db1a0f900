// RemoteHost, part two: what the host sends back (docs/osc.md, "Replies").
#include <charconv>

#include "cluster/RemoteHost.h"

namespace spindle::cluster {

using control::OscMessage;

void RemoteHost::onMessage(const OscMessage& message, Clock::time_point now) {
  const std::string& path = message.path;
  if (path == "/spindle/status") return onStatus(message, now);
  if (path == "/spindle/load/done") return onLoadDone(message);
  if (path == "/spindle/error") return onError(message);
  if (path == "/spindle/part/controls") return onControls(message);
  if (path == "/spindle/pong" && pingOutstanding_) {
    roundTripMs_ = std::chrono::duration<double, std::milli>(now - pingSent_).count();
    pingOutstanding_ = false;
  }
}

// Name, value pairs. A status after none for lostAfter (or the first ever) brings the
// host back: a restarted Spindle has nothing of what was asked, so all of it goes again.
void RemoteHost::onStatus(const OscMessage& message, Clock::time_point now) {
  status_.clear();
  for (std::size_t k = 0; k + 1 < message.args.size(); k += 2)
    if (message.args[k].isString() && message.args[k + 1].isNumber())
      status_.emplace_back(message.args[k].text, message.args[k + 1].number());
  const HostState before = state_;
  lastStatus_ = now;
  heard_ = true;
  if (before == HostState::Connecting) {
    state_ = HostState::Connected;
    sendEverything();
  } else if (before == HostState::Lost) {
    state_ = HostState::Returned;
    ++returns_;
    reports_.clear();
    sendEverything();
  }
}

// isii: part, instrument name, regions, samples not loaded.
void RemoteHost::onLoadDone(const OscMessage& message) {
  if (message.args.size() < 3 || !message.args[0].isInteger()) return;
  const int part = static_cast<int>(message.args[0].integer) - 1;
  PartReport& report = reports_[part];
  report.instrument = message.args[1].text;
  report.regions = static_cast<int>(message.args[2].number());
  report.error.clear();
  if (settings_.parts.count(part)) sendMix(part);
  send({"/spindle/part/controls", {control::OscValue::i(part + 1)}});
  finishRestore(part);
}

// The part an error names: "part N: ..." (a failed load) or a library path asked of a part.
int RemoteHost::partOfError(const std::string& reason) const {
  if (reason.rfind("part ", 0) == 0) {
    int part = 0;
    const auto [end, ec] = std::from_chars(reason.data() + 5, reason.data() + reason.size(), part);
    if (ec == std::errc{} && end < reason.data() + reason.size() && *end == ':') return part - 1;
  }
  for (const auto& [part, asked] : settings_.parts)
    if (!asked.library.empty() && reason.find(asked.library) != std::string::npos) return part;
  return -1;
}

// ss: the address that failed, the reason.
void RemoteHost::onError(const OscMessage& message) {
  if (message.args.size() < 2) return;
  const std::string& reason = message.args[1].text;
  const int part = partOfError(reason);
  if (part < 0) {
    error_ = message.args[0].text + ": " + reason;
    return;
  }
  reports_[part].error = reason;
  if (message.args[0].text == "/spindle/load") finishRestore(part);
}

// i(isf)...: part, then controller, label, value 0..1.
void RemoteHost::onControls(const OscMessage& message) {
  if (message.args.empty() || !message.args[0].isInteger()) return;
  auto& controls = reports_[static_cast<int>(message.args[0].integer) - 1].controls;
  controls.clear();
  for (std::size_t k = 1; k + 2 < message.args.size(); k += 3)
    controls.emplace_back(message.args[k + 1].text, static_cast<float>(message.args[k + 2].number()));
}

}  // namespace spindle::cluster
