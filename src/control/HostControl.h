#pragma once
// HostControl: what the master's OSC layer and window drive on the other machines of a
// cluster: every remote Spindle (`spindle --headless` on a NetJACK2 slave), its state
// and health, and its parts. The app implements it over src/cluster's RemoteHosts; this
// header knows nothing of sockets.
//
// Threads: every method may be called from any thread (control, gui); implementations
// lock their own state and never wait on the network.
//
// Numbering: parts are 0-based here (0..15); the OSC wire uses 1..16.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spindle::control {

// What the master asks of one remote part: its library (a path on that host), its
// level and its controllers. A session keeps these, and a host that comes back gets
// them again.
struct HostPartSettings {
  std::string library;            // empty: none asked
  std::optional<float> volumeDb;  // unset: the host's own
  std::map<int, int> controls;    // controller 0..127 -> value 0..127 (the part's channel)

  bool operator==(const HostPartSettings&) const = default;
};

struct HostSettings {
  std::string name;     // the master's name for the host ("a", "stage-left")
  std::string address;  // numeric IPv4/IPv6 or a host name
  int port = 9951;      // the host's OSC port
  std::map<int, HostPartSettings> parts;  // 0-based part -> what was asked
  std::string jackClient;  // its NetJACK2 client on the master's JACK (routed); empty: not routed

  bool operator==(const HostSettings&) const = default;
};

// "NAME=ADDR[:PORT][@JACKCLIENT]" (the --host option and a session's host lines);
// nullopt with `error` when it is not one.
std::optional<HostSettings> parseHostSpec(const std::string& spec, std::string& error);

// One remote part as the master sees it: what it asked, and what the host answered.
struct HostPartView {
  int part = 0;
  HostPartSettings asked;
  std::string instrument;  // the name the host's /spindle/load/done gave; empty: not loaded
  int regions = 0;
  std::string error;       // the host's last /spindle/error about this part
  std::vector<std::pair<std::string, float>> controls;  // labelled controllers and values 0..1
};

struct HostView {
  std::string name, address, jackClient;
  int port = 0;
  std::string state;  // connecting, connected, lost, returned
  double statusAgeSeconds = -1.0;  // since the last /spindle/status; -1: none yet
  double roundTripMs = -1.0;       // OSC round trip: the last /spindle/ping -> /spindle/pong; -1: none yet
  // Audio round trip through the host, master -> host -> master, as the host (a NetJACK2
  // slave) reports it (net_round_trip_frames), and in ms at the master's sample rate; -1: none.
  double audioRoundTripFrames = -1.0;
  double audioRoundTripMs = -1.0;
  bool signedControl = false;      // messages to it are signed; only its verified replies are read
  uint64_t refusedReplies = 0;     // with signing: its replies refused (unsigned, bad MAC, replayed, stale)
  std::vector<std::pair<std::string, double>> status;  // the host's last /spindle/status pairs
  std::vector<HostPartView> parts;  // the parts asked of it or loaded, by part
  int returns = 0;                  // how many times it came back after being lost
  std::string error;                // the host's last /spindle/error that names no part

  // The value of status field `key` (voices, underruns, ...), or `fallback`.
  double value(const std::string& key, double fallback = -1.0) const;
};

class HostControl {
 public:
  virtual std::vector<HostView> hosts() = 0;
  // Each returns false with `error` when the host is unknown; the command is sent at
  // once when the host is reachable and remembered either way (a lost host gets it
  // when it returns).
  virtual bool load(const std::string& host, int part, const std::string& path, std::string& error) = 0;
  virtual bool setVolume(const std::string& host, int part, float db, std::string& error) = 0;
  virtual bool setControl(const std::string& host, int part, int cc, int value, std::string& error) = 0;
  virtual std::vector<HostSettings> settings() = 0;  // every host and what was asked, for a session
  // A session's hosts: adds the hosts not known yet, and asks each host's parts again.
  virtual void restore(const std::vector<HostSettings>& hosts) = 0;

 protected:
  ~HostControl() = default;
};

}  // namespace spindle::control
