#include "cluster/RemoteHost.h"

#include <utility>

namespace spindle::cluster {

using control::OscMessage;
using control::OscValue;

const char* stateName(HostState state) {
  switch (state) {
    case HostState::Connecting: return "connecting";
    case HostState::Connected: return "connected";
    case HostState::Lost: return "lost";
    case HostState::Returned: return "returned";
  }
  return "?";
}

RemoteHost::RemoteHost(control::HostSettings settings, OscTransport& transport, HostTiming timing)
    : settings_(std::move(settings)), transport_(transport), timing_(timing) {}

void RemoteHost::send(const OscMessage& message) { sendOsc(transport_, message); }

void RemoteHost::tick(Clock::time_point now) {
  if (reachable() && now - lastStatus_ > timing_.lostAfter) {
    state_ = HostState::Lost;
    restoring_.clear();
    pingOutstanding_ = false;
  }
  if (!reachable() && (lastSubscribe_ == Clock::time_point{} || now - lastSubscribe_ >= timing_.resubscribe)) {
    send({"/spindle/subscribe", {OscValue::f(timing_.statusHz)}});
    lastSubscribe_ = now;
  }
  if (reachable() && now - lastPing_ >= timing_.ping) {
    send({"/spindle/ping", {}});
    lastPing_ = pingSent_ = now;
    pingOutstanding_ = true;
  }
}

void RemoteHost::load(int part, const std::string& path) {
  settings_.parts[part].library = path;
  reports_[part] = PartReport{};
  if (reachable()) sendPart(part);
}

void RemoteHost::setVolume(int part, float db) {
  settings_.parts[part].volumeDb = db;
  if (reachable()) send({"/spindle/part/volume", {OscValue::i(part + 1), OscValue::f(db)}});
}

void RemoteHost::setControl(int part, int cc, int value) {
  settings_.parts[part].controls[cc] = value;
  if (!reachable()) return;
  send({"/spindle/cc", {OscValue::i(part + 1), OscValue::i(cc), OscValue::i(value)}});
  send({"/spindle/part/controls", {OscValue::i(part + 1)}});
}

void RemoteHost::restore(const std::map<int, control::HostPartSettings>& parts) {
  settings_.parts = parts;
  reports_.clear();
  if (reachable()) sendEverything();
}

// Part p plays on MIDI channel p: its controllers are channel messages.
void RemoteHost::sendMix(int part) {
  const control::HostPartSettings& asked = settings_.parts[part];
  if (asked.volumeDb) send({"/spindle/part/volume", {OscValue::i(part + 1), OscValue::f(*asked.volumeDb)}});
  for (const auto& [cc, value] : asked.controls)
    send({"/spindle/cc", {OscValue::i(part + 1), OscValue::i(cc), OscValue::i(value)}});
  if (!asked.controls.empty()) send({"/spindle/part/controls", {OscValue::i(part + 1)}});
}

void RemoteHost::sendPart(int part) {
  const control::HostPartSettings& asked = settings_.parts[part];
  if (asked.library.empty()) return sendMix(part);
  send({"/spindle/load", {OscValue::i(part + 1), OscValue::s(asked.library)}});
  if (asked.volumeDb) send({"/spindle/part/volume", {OscValue::i(part + 1), OscValue::f(*asked.volumeDb)}});
}

void RemoteHost::sendEverything() {
  for (const auto& [part, asked] : settings_.parts) {
    if (!asked.library.empty()) restoring_.insert(part);
    sendPart(part);
  }
  if (state_ == HostState::Returned && restoring_.empty()) state_ = HostState::Connected;
}

void RemoteHost::finishRestore(int part) {
  restoring_.erase(part);
  if (state_ == HostState::Returned && restoring_.empty()) state_ = HostState::Connected;
}

control::HostView RemoteHost::view(Clock::time_point now) const {
  control::HostView v;
  v.name = settings_.name;
  v.address = settings_.address;
  v.port = settings_.port;
  v.state = stateName(state_);
  if (heard_) v.statusAgeSeconds = std::chrono::duration<double>(now - lastStatus_).count();
  v.roundTripMs = roundTripMs_;
  v.status = status_;
  v.returns = returns_;
  v.error = error_;
  std::set<int> parts;
  for (const auto& entry : settings_.parts) parts.insert(entry.first);
  for (const auto& entry : reports_) parts.insert(entry.first);
  for (int part : parts) {
    control::HostPartView p;
    p.part = part;
    if (const auto it = settings_.parts.find(part); it != settings_.parts.end()) p.asked = it->second;
    if (const auto it = reports_.find(part); it != reports_.end()) {
      p.instrument = it->second.instrument;
      p.regions = it->second.regions;
      p.error = it->second.error;
      p.controls = it->second.controls;
    }
    v.parts.push_back(std::move(p));
  }
  return v;
}

}  // namespace spindle::cluster
