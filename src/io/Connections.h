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
// - Restore: a session's links (policy.restore) or, after the server went away and came
//   back, the links as they were: those are made instead of the defaults, each as soon as
//   its peer exists; links of Spindle's ports a session does not name are broken.
//
// Threads: ConnectionPlanner is owned by one thread; the rest are plain values.
#include <cstdint>
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
  std::vector<PortLink> links;            // Spindle's ports' links now
};

struct ConnectionPlan {
  std::vector<PortLink> connect, disconnect;
  bool empty() const { return connect.empty() && disconnect.empty(); }
};

class ConnectionPlanner {
 public:
  // A new policy; the next plan() applies what changed (a restore, MIDI following turned on).
  void setPolicy(ConnectionPolicy policy);
  const ConnectionPolicy& policy() const { return policy_; }
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
  void remember(const PortInventory& now, const ConnectionPlan& plan);

  ConnectionPolicy policy_;
  bool policyChanged_ = false;      // a restore was set and is not yet begun
  bool fresh_ = true;               // no plan yet on this server connection
  bool audioDone_ = false;          // the default audio link was decided on this connection
  std::set<std::string> handled_;   // MIDI sources already decided on (present now)
  std::vector<PortLink> pending_;   // links to restore once their peer exists
  std::vector<PortLink> remembered_;  // the links on the last server connection
};

}  // namespace spindle::io
