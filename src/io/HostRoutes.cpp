// The host routes of ConnectionPlanner (Connections.h): a NetJACK2 master's MIDI to each
// host's netmanager client and the host's audio back to where Spindle's outputs go.
#include <algorithm>
#include <cctype>

#include "io/Connections.h"

namespace spindle::io {

namespace {

constexpr const char* kMidiToSlave = ":midi_to_slave_1";

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// 0 for CLIENT itself, NN + 1 for CLIENT-NN, -1 for another client.
long long appearance(const std::string& client, const std::string& wanted) {
  if (client == wanted) return 0;
  if (client.size() <= wanted.size() + 1 || client.compare(0, wanted.size(), wanted) != 0 ||
      client[wanted.size()] != '-')
    return -1;
  const std::string suffix = client.substr(wanted.size() + 1);
  if (suffix.size() > 6 || !std::all_of(suffix.begin(), suffix.end(), [](char c) { return std::isdigit(c) != 0; }))
    return -1;
  return std::stoll(suffix) + 1;
}

// The client's number from `ids` (JACK's UUID, a decimal number), -1 when not given.
long long number(const std::map<std::string, std::string>& ids, const std::string& client) {
  const auto it = ids.find(client);
  if (it == ids.end() || it->second.empty() || it->second.size() > 18 ||
      !std::all_of(it->second.begin(), it->second.end(), [](char c) { return std::isdigit(c) != 0; }))
    return -1;
  return std::stoll(it->second);
}

// Where the master's out_L (side 0) or out_R (side 1) goes once `plan` is carried out;
// the playback port of that side when it goes nowhere.
std::vector<std::string> sideTargets(const PortInventory& now, const ConnectionPlan& plan, int side) {
  const std::string port = side == 0 ? "out_L" : "out_R";
  std::vector<std::string> peers;
  for (const PortLink& link : now.links)
    if (link.port == port && !has(peers, link.peer) &&
        std::find(plan.disconnect.begin(), plan.disconnect.end(), link) == plan.disconnect.end())
      peers.push_back(link.peer);
  for (const PortLink& link : plan.connect)
    if (link.port == port && !has(peers, link.peer)) peers.push_back(link.peer);
  if (peers.empty() && !now.playback.empty())
    peers.push_back(now.playback[std::min<std::size_t>(static_cast<std::size_t>(side), now.playback.size() - 1)]);
  return peers;
}

bool peerLinked(const std::vector<PeerLink>& links, const PeerLink& link) {
  return std::find(links.begin(), links.end(), link) != links.end();
}

}  // namespace

std::string presentClient(const HostRoute& route, const std::vector<std::string>& ports,
                          const std::map<std::string, std::string>& ids) {
  std::string best;
  std::pair<long long, long long> newest{-1, -1};  // (client number, NN rank)
  for (const std::string& port : ports) {
    const std::size_t colon = port.find(':');
    if (colon == std::string::npos || port.compare(colon, std::string::npos, kMidiToSlave) != 0) continue;
    const std::string client = port.substr(0, colon);
    const long long rank = appearance(client, route.client);
    if (rank < 0) continue;
    const std::pair<long long, long long> order{number(ids, client), rank};
    if (best.empty() || order > newest) {
      newest = order;
      best = client;
    }
  }
  return best;
}

std::string describeRoute(const HostRouteState& route) {
  if (route.present.empty()) return "client absent";
  if (!route.midi && !route.audio) return route.present + ": not linked";
  return route.present + ": " + (route.midi ? "MIDI" : "") + (route.midi && route.audio ? " + " : "") +
         (route.audio ? "audio" : "");
}

std::vector<HostRouteState> hostRouteStates(const std::vector<HostRoute>& routes, const PortInventory& now) {
  std::vector<HostRouteState> states;
  for (const HostRoute& route : routes) {
    HostRouteState state{route.name, route.client, presentClient(route, now.ports, now.clientIds), false, false};
    if (!state.present.empty()) {
      const PortLink midi{"to_" + route.name, state.present + kMidiToSlave};
      state.midi = std::find(now.hostLinks.begin(), now.hostLinks.end(), midi) != now.hostLinks.end();
      const std::string from = state.present + ":from_slave_1";
      state.audio = std::any_of(now.peerLinks.begin(), now.peerLinks.end(),
                                [&](const PeerLink& link) { return link.source == from; });
    }
    states.push_back(std::move(state));
  }
  return states;
}

// Each routed host present now; a host whose client went away is decided on afresh
// when it comes back.
void ConnectionPlanner::routeHosts(const PortInventory& now, ConnectionPlan& plan) {
  std::map<std::string, std::pair<std::string, std::set<std::string>>> seen;
  for (const HostRoute& route : routes_) {
    const std::string client = presentClient(route, now.ports, now.clientIds);
    if (client.empty()) continue;
    const auto id = now.clientIds.find(client);
    const std::string identity = client + '\n' + (id == now.clientIds.end() ? std::string() : id->second);
    auto it = appearances_.find(route.name);
    auto& current = seen[route.name];
    if (it != appearances_.end() && it->second.first == identity) current = std::move(it->second);
    current.first = identity;
    routeHost(route, client, current.second, now, plan);
  }
  appearances_ = std::move(seen);
}

// The host's MIDI from to_NAME, its audio to where out_L / out_R go at that moment: each
// decided once while this client stays (`decided`), a link made only when it is not there.
void ConnectionPlanner::routeHost(const HostRoute& route, const std::string& client, std::set<std::string>& decided,
                                  const PortInventory& now, ConnectionPlan& plan) {
  const PortLink midi{"to_" + route.name, client + kMidiToSlave};
  if (decided.insert(midi.peer).second &&
      std::find(now.hostLinks.begin(), now.hostLinks.end(), midi) == now.hostLinks.end())
    plan.connect.push_back(midi);
  const std::string from1 = client + ":from_slave_1", from2 = client + ":from_slave_2";
  if (!has(now.ports, from1)) return;
  const bool stereo = has(now.ports, from2);
  for (int side = 0; side < 2; ++side) {
    if (!decided.insert(side == 0 ? "audio L" : "audio R").second) continue;
    const std::string& source = side == 1 && stereo ? from2 : from1;
    for (const std::string& target : sideTargets(now, plan, side)) {
      const PeerLink link{source, target};
      if (!peerLinked(now.peerLinks, link) && !peerLinked(plan.connectPeers, link)) plan.connectPeers.push_back(link);
    }
  }
}

}  // namespace spindle::io
