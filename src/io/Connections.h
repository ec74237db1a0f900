#pragma once
// Connections: what Spindle connects by itself, so the first note is heard with no
// patchbay, and what its ports are connected to now.
//
//   ConnectionPolicy   what the user asked for: the main outputs to the system's playback,
//                      hardware MIDI sources (keyboards) followed into midi_in, or a
//                      session's own links instead of the defaults
//   ConnectionPlanner  from the ports present now, the links to make and to break
//                      (pure: the backends' connection threads own one each)
//   ConnectionReport   the state shown in the window, over OSC and in the headless summary
//
// The rules (the same for JACK and PipeWire):
// - Audio: once per server connection, out_L/out_R go to the first two playback ports
//   (JACK: physical playback ports; PipeWire: the default sink's inputs), unless they are
//   connected already or links are being restored. Multi-out ports are never connected.
// - MIDI: every hardware source present at start, and every one that appears later, is
//   connected to midi_in once; a source the user disconnects stays disconnected until it
//   goes away and comes back. With `midiFrom` only sources whose name contains one of its
//   texts are followed.
// - A peer that goes away (a device unplugged; a NetJACK2 slave's system ports while its
//   driver restarts after losing the master): its links are made again when it comes
//   back. A link the user breaks while its peer is present stays broken.
// - Restore: a session's links (policy.restore) or, after the server went away and came
//   back, the links as they were: those are made instead of the defaults, each as soon as
//   its peer exists; links of Spindle's ports a session does not name are broken.
// - Hosts (JACK, a NetJACK2 master; setHostRoutes, apart from the policy so a restore
//   keeps them): for each routed host whose netmanager client is present (named CLIENT,
//   or CLIENT-NN when it came back while its old client was still registered: the newest
//   present, by JACK's client number), own `to_NAME` -> CLIENT:midi_to_slave_1, and CLIENT:from_slave_1 /
//   from_slave_2 -> where out_L / out_R are connected when it appears (else the first two playback
//   ports; a mono host's from_slave_1 goes to both). Each link is decided once per
//   appearance of the client: one the user breaks stays broken until the client goes
//   away and comes back. Host links are not a session's links (they are remade).
//
// Threads: ConnectionPlanner is owned by one thread; the rest are plain values.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace spindle::io {

// One link: one of Spindle's ports by its short name ("out_L", "midi_in", "out_3_R")
// and the other port by its full name ("system:playback_1").
struct PortLink {
  std::string port;
  std::string peer;

  bool operator==(const PortLink&) const = default;
  bool operator<(const PortLink& o) const { return port != o.port ? port < o.port : peer < o.peer; }
};

// A link between two ports that are not Spindle's (a host's returning audio), by their
// full names, source first.
struct PeerLink {
  std::string source;
  std::string destination;

  bool operator==(const PeerLink&) const = default;
};

// A host the master routes: its name (Spindle's port `to_NAME`) and its netmanager
// client's name on this server.
struct HostRoute {
  std::string name;
  std::string client;

  bool operator==(const HostRoute&) const = default;
};

// What a host route is now: `present` is the client's name on the server (empty:
// absent); midi: to_NAME feeds its midi_to_slave_1; audio: its from_slave_1 is connected.
struct HostRouteState {
  std::string name, client, present;
  bool midi = false, audio = false;

  bool operator==(const HostRouteState&) const = default;
};

struct ConnectionPolicy {
  bool audio = true;                 // main outputs -> the system's playback
  bool midi = true;                  // hardware MIDI sources -> midi_in, hot-plug included
  std::vector<std::string> midiFrom; // non-empty: follow only sources whose name contains one of these
  bool restore = false;              // make `saved` instead of the defaults
  std::vector<PortLink> saved;

  bool operator==(const ConnectionPolicy&) const = default;
};

struct MidiSource {
  std::string name;        // full port name
  bool hardware = false;   // a physical source (keyboard, a2jmidid's ports, a PipeWire MIDI bridge)
  bool connected = false;  // feeds midi_in now

  bool operator==(const MidiSource&) const = default;
};

struct ConnectionReport {
  std::string server;                  // "jack", "pipewire"; empty: not connected
  std::vector<MidiSource> midiSources; // hardware sources seen, then any other port feeding midi_in
  std::vector<std::string> audioPeers; // what out_L, then out_R, are connected to
  std::vector<PortLink> links;         // every link of Spindle's ports (a session saves these)
  std::vector<HostRouteState> hostRoutes;  // one per routed host, in setHostRoutes' order
  uint64_t serial = 0;                 // raised whenever any of the above changed

  bool midiConnected() const;
  bool audioConnected() const { return !audioPeers.empty(); }
  // One line for the window and the headless summary: "" when MIDI and audio are both
  // connected, else what is missing ("no MIDI input connected", "outputs not connected").
  std::string hint() const;
};

// The ports present now, as a connection thread sees them.
struct PortInventory {
  std::vector<std::string> playback;      // default audio targets, in channel order
  std::vector<std::string> hardwareMidi;  // hardware MIDI sources present now
  std::vector<std::string> ports;         // every port present (a saved peer is linked once present)
  std::vector<PortLink> links;            // Spindle's ports' links now (host ports' apart)
  std::vector<PortLink> hostLinks;        // the links of Spindle's to_NAME ports now
  std::vector<PeerLink> peerLinks;        // the links of every *:from_slave_N port now
  // Ports that went away since the last scan, present again or not (the server's own
  // notices, ConnectionKeeper::portGone): a NetJACK2 slave's driver restart can take
  // system:playback_* and bring them back between two scans, their links gone.
  std::vector<std::string> departed;
  // Clients that closed since the last scan (ConnectionKeeper::clientGone): links to
  // their ports are let go, not held for a client of that name to come back.
  std::vector<std::string> departedClients;
  // A NetJACK2 master client's identity (JACK: its UUID), by client name: a client that
  // went and came back under the same name between two scans is a new appearance.
  std::map<std::string, std::string> clientIds;
};

struct ConnectionPlan {
  std::vector<PortLink> connect, disconnect;
  std::vector<PeerLink> connectPeers;  // links between two ports not Spindle's
  bool empty() const { return connect.empty() && disconnect.empty() && connectPeers.empty(); }
};

// The client present now for `route` (CLIENT or CLIENT-NN with a midi_to_slave_1 port),
// empty when absent. Of several, the newest: the highest identity when `ids` gives them
// (JACK numbers its clients in order), else the highest NN.
std::string presentClient(const HostRoute& route, const std::vector<std::string>& ports,
                          const std::map<std::string, std::string>& ids = {});
// "spindle_host1: MIDI + audio", "spindle_host1: MIDI", "spindle_host1: not linked",
// "client absent": one route's state in words (the window, the headless log).
std::string describeRoute(const HostRouteState& route);
// What each route is in `now` (for the report).
std::vector<HostRouteState> hostRouteStates(const std::vector<HostRoute>& routes, const PortInventory& now);

class ConnectionPlanner {
 public:
  // A new policy; the next plan() applies what changed (a restore, MIDI following turned on).
  void setPolicy(ConnectionPolicy policy);
  const ConnectionPolicy& policy() const { return policy_; }
  // The hosts to route; a host no longer named is left as it is (its port stops being fed).
  void setHostRoutes(std::vector<HostRoute> routes) { routes_ = std::move(routes); }
  const std::vector<HostRoute>& hostRoutes() const { return routes_; }
  // A new connection to the server: the default audio link is due again and, when links
  // had been made on the last one, they are restored instead of the defaults.
  void serverStarted();
  ConnectionPlan plan(const PortInventory& now);

 private:
  bool follows(const std::string& source) const;
  void startRestore(const PortInventory& now, std::vector<PortLink> links, ConnectionPlan& plan);
  void connectRestored(const PortInventory& now, ConnectionPlan& plan);
  void connectAudio(const PortInventory& now, ConnectionPlan& plan);
  void followMidi(const PortInventory& now, ConnectionPlan& plan);
  void holdLinksOfGonePeers(const PortInventory& now);
  void remember(const PortInventory& now, const ConnectionPlan& plan);
  void routeHosts(const PortInventory& now, ConnectionPlan& plan);
  void routeHost(const HostRoute& route, const std::string& client, std::set<std::string>& decided,
                 const PortInventory& now, ConnectionPlan& plan);

  ConnectionPolicy policy_;
  bool policyChanged_ = false;      // a restore was set and is not yet begun
  bool fresh_ = true;               // no plan yet on this server connection
  bool audioDone_ = false;          // the default audio link was decided on this connection
  std::set<std::string> handled_;   // MIDI sources already decided on (present now)
  std::vector<PortLink> pending_;   // links to restore once their peer exists
  std::vector<PortLink> remembered_;  // the links on the last server connection
  std::vector<PortLink> vanished_;    // remembered links the last scan found gone
  std::vector<HostRoute> routes_;
  // Per routed host present now: the client seen (name and identity) and what was
  // decided while it stays.
  std::map<std::string, std::pair<std::string, std::set<std::string>>> appearances_;
};

}  // namespace spindle::io
