#include "io/Connections.h"

#include <algorithm>

namespace spindle::io {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

bool linked(const std::vector<PortLink>& links, const PortLink& link) {
  return std::find(links.begin(), links.end(), link) != links.end();
}

bool portLinked(const std::vector<PortLink>& links, const std::string& port) {
  return std::any_of(links.begin(), links.end(), [&](const PortLink& l) { return l.port == port; });
}

}  // namespace

bool ConnectionReport::midiConnected() const {
  return std::any_of(midiSources.begin(), midiSources.end(), [](const MidiSource& s) { return s.connected; });
}

std::string ConnectionReport::hint() const {
  if (server.empty()) return "not connected to a sound server";
  std::string text;
  if (!midiConnected()) text = "no MIDI input connected";
  if (!audioConnected()) text += std::string(text.empty() ? "" : "; ") + "outputs not connected";
  return text;
}

// A restore is carried out each time it is set, even when its links are the same as last time's.
void ConnectionPlanner::setPolicy(ConnectionPolicy policy) {
  if (policy.midi && (!policy_.midi || policy.midiFrom != policy_.midiFrom)) handled_.clear();  // follow those present now
  policyChanged_ = policy.restore;
  policy_ = std::move(policy);
}

void ConnectionPlanner::serverStarted() {
  fresh_ = true;
  audioDone_ = false;
  handled_.clear();
  pending_.clear();
  vanished_.clear();
  appearances_.clear();
}

bool ConnectionPlanner::follows(const std::string& source) const {
  if (!policy_.midi) return false;
  if (policy_.midiFrom.empty()) return true;
  return std::any_of(policy_.midiFrom.begin(), policy_.midiFrom.end(),
                     [&](const std::string& text) { return source.find(text) != std::string::npos; });
}

// Links to restore replace the defaults: the sources present now count as decided on,
// the audio default is not made, and links the restored set does not name are broken.
void ConnectionPlanner::startRestore(const PortInventory& now, std::vector<PortLink> links, ConnectionPlan& plan) {
  pending_ = std::move(links);
  audioDone_ = true;
  handled_.insert(now.hardwareMidi.begin(), now.hardwareMidi.end());
  for (const PortLink& link : now.links)
    if (!linked(pending_, link)) plan.disconnect.push_back(link);
}

ConnectionPlan ConnectionPlanner::plan(const PortInventory& now) {
  ConnectionPlan plan;
  holdLinksOfGonePeers(now);
  if (policyChanged_) {
    startRestore(now, policy_.saved, plan);
  } else if (fresh_ && !remembered_.empty()) {
    startRestore(now, remembered_, plan);
  }
  policyChanged_ = false;
  fresh_ = false;
  connectRestored(now, plan);
  connectAudio(now, plan);
  followMidi(now, plan);
  remember(now, plan);
  routeHosts(now, plan);
  return plan;
}

// Restored links, each as soon as its peer exists.
void ConnectionPlanner::connectRestored(const PortInventory& now, ConnectionPlan& plan) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (!contains(now.ports, it->peer)) {
      ++it;
      continue;
    }
    if (!linked(now.links, *it)) plan.connect.push_back(*it);
    it = pending_.erase(it);
  }
}

void ConnectionPlanner::connectAudio(const PortInventory& now, ConnectionPlan& plan) {
  if (audioDone_ || now.playback.empty()) return;
  audioDone_ = true;
  if (!policy_.audio || portLinked(now.links, "out_L") || portLinked(now.links, "out_R")) return;
  plan.connect.push_back({"out_L", now.playback[0]});
  plan.connect.push_back({"out_R", now.playback[std::min<std::size_t>(1, now.playback.size() - 1)]});
}

// Each source once while it is present; one that went away is decided on afresh when
// it comes back.
void ConnectionPlanner::followMidi(const PortInventory& now, ConnectionPlan& plan) {
  for (const std::string& source : now.hardwareMidi) {
    if (!handled_.insert(source).second) continue;
    const PortLink link{"midi_in", source};
    if (follows(source) && !linked(now.links, link) && !linked(plan.connect, link)) plan.connect.push_back(link);
  }
  for (auto it = handled_.begin(); it != handled_.end();)
    it = contains(now.hardwareMidi, *it) ? std::next(it) : handled_.erase(it);
}

// A link whose peer went away (absent now, or gone and back since the last scan) is
// made again when the peer is there (connectRestored); a link the user broke while its
// peer stayed is not remembered, and stays broken.
// A departure's notice can come one scan late, after a scan that saw the link missing
// and its peer back: a link lost on the last scan is held too when its peer's notice
// has come now (vanished_). A peer whose client closed is let go: that program quit, and
// one starting under its name connects itself (or its session does).
void ConnectionPlanner::holdLinksOfGonePeers(const PortInventory& now) {
  const auto quit = [&](const PortLink& link) {
    return contains(now.departedClients, link.peer.substr(0, link.peer.find(':')));
  };
  std::erase_if(pending_, quit);
  const auto hold = [&](const PortLink& link) {
    if (!quit(link) && !linked(pending_, link)) pending_.push_back(link);
  };
  for (const PortLink& link : remembered_)
    if (!contains(now.ports, link.peer) || contains(now.departed, link.peer)) hold(link);
  for (const PortLink& link : vanished_)
    if (contains(now.departed, link.peer)) hold(link);
}

// What the links will be, for the next server connection to restore.
void ConnectionPlanner::remember(const PortInventory& now, const ConnectionPlan& plan) {
  vanished_.clear();
  for (const PortLink& link : remembered_)
    if (!linked(now.links, link) && !linked(plan.disconnect, link)) vanished_.push_back(link);
  remembered_ = now.links;
  for (const PortLink& link : plan.disconnect) std::erase(remembered_, link);
  const auto add = [this](const PortLink& link) {
    if (!linked(remembered_, link)) remembered_.push_back(link);
  };
  std::for_each(plan.connect.begin(), plan.connect.end(), add);
  std::for_each(pending_.begin(), pending_.end(), add);
}

}  // namespace spindle::io
