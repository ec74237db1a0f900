#pragma once
// Connections: the session's connection methods (control/ControlTarget.h) over an
// AudioBackend (io/Connections.h): the state OSC reports and a session file saves, the
// links a session restores, one link made or broken, the hosts a master routes.
//
// Threads: any (the backend's connection calls are thread-safe); attach() before the
// control thread starts, and the backend outlives it.
#include <string>
#include <vector>

#include "control/ControlTarget.h"
#include "io/AudioBackend.h"
#include "io/LiveProcessor.h"

namespace spindle::session {

class Connections {
 public:
  // One MIDI input as OSC names it, and its index in LiveStatsSnapshot::inputs.
  struct Input {
    int activity = 0;
    std::string name;
  };

  void attach(io::AudioBackend* backend, const io::LiveProcessor* live = nullptr, std::vector<Input> inputs = {}) {
    backend_ = backend;
    live_ = live;
    inputs_ = std::move(inputs);
  }

  control::ConnectionState state() const {
    control::ConnectionState state;
    if (!backend_) return state;
    const io::ConnectionReport report = backend_->connections();
    state.server = report.server;
    state.hint = report.hint();
    state.serial = report.serial;
    for (const io::PortLink& link : report.links) state.links.push_back({link.port, link.peer});
    for (const io::HostRouteState& r : report.hostRoutes)
      state.hostRoutes.push_back({r.name, r.client, r.present, r.midi, r.audio, io::describeRoute(r)});
    for (const io::MidiSource& source : report.midiSources)
      if (source.hardware) state.midiSources.emplace_back(source.name, source.connected);
    if (!live_) return state;
    const io::LiveStatsSnapshot stats = live_->stats();
    for (const Input& input : inputs_) {
      const io::InputActivity& a = stats.inputs[static_cast<std::size_t>(input.activity)];
      state.inputs.push_back({input.name, a.events, a.events > 0 ? a.lastChannel + 1 : 0});
    }
    return state;
  }

  // The links are saved only while a server is connected: a session saved without one
  // keeps whatever connections the next start makes.
  void addTo(control::SessionState& session) const {
    const control::ConnectionState now = state();
    session.hasConnections = !now.server.empty();
    session.connections = now.links;
  }

  // The session's links replace the automatic ones; the rest of the policy stays.
  void restore(const std::vector<control::ConnectionLink>& links) const {
    if (!backend_) return;
    io::ConnectionPolicy policy = backend_->connectionPolicy();
    policy.restore = true;
    policy.saved.clear();
    for (const control::ConnectionLink& link : links) policy.saved.push_back({link.port, link.peer});
    backend_->setConnectionPolicy(std::move(policy));
  }

  // The hosts with a JACK client (--host NAME=ADDR@CLIENT, a session's jack_client), to
  // the backend whenever they change (a session may add hosts): it routes them.
  void routeHosts(const std::vector<control::HostSettings>& hosts) {
    std::vector<io::HostRoute> routes;
    for (const control::HostSettings& host : hosts)
      if (!host.jackClient.empty()) routes.push_back({host.name, host.jackClient});
    if (!backend_ || routes == routes_) return;
    routes_ = routes;
    backend_->setHostRoutes(std::move(routes));
  }

  void set(const control::ConnectionLink& link, bool on) const {
    if (backend_) backend_->setLink({link.port, link.peer}, on);
  }

 private:
  io::AudioBackend* backend_ = nullptr;
  const io::LiveProcessor* live_ = nullptr;
  std::vector<Input> inputs_;
  std::vector<io::HostRoute> routes_;  // the routes given to the backend
};

}  // namespace spindle::session
