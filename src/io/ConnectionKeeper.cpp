#include "io/ConnectionKeeper.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace spindle::io {

namespace {

constexpr auto kRescan = std::chrono::seconds(1);
constexpr std::size_t kMaxMessages = 64;
constexpr std::size_t kMaxGone = 1024;  // a whole device's ports many times over

bool hasLink(const std::vector<PortLink>& links, const PortLink& link) {
  return std::find(links.begin(), links.end(), link) != links.end();
}

std::string describeLink(const PortLink& link) { return link.port + " <-> " + link.peer; }

}  // namespace

ConnectionKeeper::~ConnectionKeeper() { stop(); }

void ConnectionKeeper::start(const std::string& server) {
  stop();
  {
    std::lock_guard lock(mutex_);
    running_ = true;
    poked_ = true;
    server_ = server;
  }
  planner_.serverStarted();
  thread_ = std::thread([this] { run(); });
}

void ConnectionKeeper::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!running_ && !thread_.joinable()) return;
    running_ = false;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  ConnectionReport none;  // no server: nothing is connected
  none.serial = report_.serial + 1;
  report_ = std::move(none);
}

void ConnectionKeeper::poke() {
  {
    std::lock_guard lock(mutex_);
    poked_ = true;
  }
  wake_.notify_all();
}

void ConnectionKeeper::setPolicy(ConnectionPolicy policy) {
  {
    std::lock_guard lock(mutex_);
    policy_ = std::move(policy);
    policyChanged_ = true;
    poked_ = true;
  }
  wake_.notify_all();
}

ConnectionPolicy ConnectionKeeper::policy() const {
  std::lock_guard lock(mutex_);
  return policy_;
}

ConnectionReport ConnectionKeeper::report() const {
  std::lock_guard lock(mutex_);
  return report_;
}

void ConnectionKeeper::setLink(const PortLink& link, bool on) {
  {
    std::lock_guard lock(mutex_);
    manual_.emplace_back(link, on);
    poked_ = true;
  }
  wake_.notify_all();
}

void ConnectionKeeper::portGone(std::string name) {
  {
    std::lock_guard lock(mutex_);
    if (gone_.size() < kMaxGone) gone_.push_back(std::move(name));
    poked_ = true;
  }
  wake_.notify_all();
}

void ConnectionKeeper::clientGone(std::string name) {
  {
    std::lock_guard lock(mutex_);
    if (goneClients_.size() < kMaxGone) goneClients_.push_back(std::move(name));
    poked_ = true;
  }
  wake_.notify_all();
}

void ConnectionKeeper::setHostRoutes(std::vector<HostRoute> routes) {
  {
    std::lock_guard lock(mutex_);
    routes_ = std::move(routes);
    routesChanged_ = true;
    poked_ = true;
  }
  wake_.notify_all();
}

std::vector<std::string> ConnectionKeeper::takeMessages() {
  std::lock_guard lock(mutex_);
  return std::exchange(messages_, {});
}

void ConnectionKeeper::say(std::string message) {
  std::lock_guard lock(mutex_);
  if (messages_.size() < kMaxMessages) messages_.push_back(std::move(message));
}

void ConnectionKeeper::run() {
  std::unique_lock lock(mutex_);
  while (running_) {
    wake_.wait_for(lock, kRescan, [this] { return poked_ || !running_; });
    if (!running_) break;
    poked_ = false;
    lock.unlock();
    scan();
    lock.lock();
  }
}

// One round: the user's own links first, then what the policy asks for, then the
// report from a fresh look at the server.
void ConnectionKeeper::scan() {
  std::deque<std::pair<PortLink, bool>> manual;
  std::vector<std::string> gone, goneClients;
  {
    std::lock_guard lock(mutex_);
    manual.swap(manual_);
    gone.swap(gone_);
    goneClients.swap(goneClients_);
    if (policyChanged_) planner_.setPolicy(policy_);
    if (routesChanged_) planner_.setHostRoutes(routes_);
    policyChanged_ = routesChanged_ = false;
  }
  for (const auto& [link, on] : manual) apply({link}, on);
  PortInventory now = inventory();
  now.departed = std::move(gone);
  now.departedClients = std::move(goneClients);
  const ConnectionPlan plan = planner_.plan(now);
  if (!plan.empty()) {
    apply(plan.disconnect, false);
    apply(plan.connect, true);
    for (const PeerLink& peers : plan.connectPeers) {
      std::string error;
      if (!linkPeers(peers, error)) say("cannot connect " + peers.source + " -> " + peers.destination + ": " + error);
    }
  }
  if (!plan.empty() || !manual.empty()) now = inventory();
  publish(now);
}

void ConnectionKeeper::apply(const std::vector<PortLink>& links, bool on) {
  for (const PortLink& l : links) {
    std::string error;
    if (!link(l, on, error))
      say(std::string("cannot ") + (on ? "connect " : "disconnect ") + describeLink(l) + ": " + error);
  }
}

// The report from what the server shows; each change of a link is said once.
void ConnectionKeeper::publish(const PortInventory& now) {
  ConnectionReport next;
  next.server = server_;
  next.links = now.links;
  next.hostRoutes = hostRouteStates(planner_.hostRoutes(), now);
  for (const std::string& source : now.hardwareMidi)
    next.midiSources.push_back({source, true, hasLink(now.links, {"midi_in", source})});
  for (const PortLink& link : now.links) {
    if (link.port == "midi_in" &&
        std::find(now.hardwareMidi.begin(), now.hardwareMidi.end(), link.peer) == now.hardwareMidi.end())
      next.midiSources.push_back({link.peer, false, true});
    if (link.port == "out_L") next.audioPeers.push_back(link.peer);
  }
  for (const PortLink& link : now.links)
    if (link.port == "out_R") next.audioPeers.push_back(link.peer);
  std::lock_guard lock(mutex_);
  for (const PortLink& link : next.links)
    if (!hasLink(report_.links, link) && messages_.size() < kMaxMessages)
      messages_.push_back("connected " + describeLink(link));
  for (const PortLink& link : report_.links)
    if (!hasLink(next.links, link) && messages_.size() < kMaxMessages)
      messages_.push_back("disconnected " + describeLink(link));
  sayRoutes(next.hostRoutes);
  const bool changed =
      next.server != report_.server || next.links != report_.links || next.midiSources != report_.midiSources ||
      next.hostRoutes != report_.hostRoutes;
  next.serial = report_.serial + (changed ? 1 : 0);
  report_ = std::move(next);
}

// Under mutex_: each route whose state changed, in words ("host a: spindle_host1: MIDI + audio").
void ConnectionKeeper::sayRoutes(const std::vector<HostRouteState>& routes) {
  for (const HostRouteState& route : routes) {
    const auto same = [&](const HostRouteState& old) { return old == route; };
    if (std::none_of(report_.hostRoutes.begin(), report_.hostRoutes.end(), same) && messages_.size() < kMaxMessages)
      messages_.push_back("host " + route.name + ": " + describeRoute(route));
  }
}

}  // namespace spindle::io
