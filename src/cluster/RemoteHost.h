#pragma once
// RemoteHost: one remote Spindle as the master sees it, over the OSC API every Spindle
// answers (docs/osc.md): it subscribes to the host's /spindle/status, keeps the last
// one, measures the control round trip (/spindle/ping), sends what the master asks of
// the host's parts (load, volume, controllers) and remembers it, so that a host that was
// lost and comes back (a restarted spindle has no subscription and nothing loaded) gets
// every part back as it was.
//
//              status                    no status for lostAfter
//   Connecting ──────► Connected ◄──────┐ ───────────────────────► Lost
//       ▲  (sends what was asked        │ every restored load          │ status again:
//       │   while it was not there)     └── replied ── Returned ◄──────┘ re-sends everything
//   subscribe every `resubscribe` while Connecting or Lost
//
// While Connecting or Lost nothing but /spindle/subscribe is sent; what is asked
// meanwhile is remembered and sent on (re)connection. A part's volume and controllers
// are sent again once its load is done, since an instrument's own defaults (set_cc)
// may move its controllers when it loads.
//
// Thread: one at a time (the owner's lock: HostsThread's hosts thread, and the control
// or gui thread asking for something). Time comes in as arguments, so tests step it.
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cluster/OscTransport.h"
#include "control/HostControl.h"
#include "control/OscMessage.h"

namespace spindle::cluster {

using Clock = std::chrono::steady_clock;

enum class HostState { Connecting, Connected, Lost, Returned };
const char* stateName(HostState state);

struct HostTiming {
  Clock::duration lostAfter = std::chrono::seconds(3);     // no status this long: Lost
  Clock::duration resubscribe = std::chrono::seconds(1);   // subscribe again while not heard
  Clock::duration ping = std::chrono::seconds(1);          // round-trip probe while connected
  double statusHz = 2.0;                                   // the /spindle/subscribe rate
};

class RemoteHost {
 public:
  RemoteHost(control::HostSettings settings, OscTransport& transport, HostTiming timing = {});

  // Subscribes while not heard, pings while connected, and notices a lost host.
  void tick(Clock::time_point now);
  // A message from the host (a reply or pushed status).
  void onMessage(const control::OscMessage& message, Clock::time_point now);

  // What the master asks of a part (0-based); remembered, and sent when the host is there.
  void load(int part, const std::string& path);
  void setVolume(int part, float db);
  void setControl(int part, int cc, int value);
  // A session's parts: replaces what was asked and sends it all (when connected).
  void restore(const std::map<int, control::HostPartSettings>& parts);

  HostState state() const noexcept { return state_; }
  const control::HostSettings& settings() const noexcept { return settings_; }
  control::HostView view(Clock::time_point now) const;

 private:
  struct PartReport {
    std::string instrument, error;
    int regions = 0;
    std::vector<std::pair<std::string, float>> controls;
  };
  bool reachable() const noexcept { return state_ == HostState::Connected || state_ == HostState::Returned; }
  void send(const control::OscMessage& message);
  void sendMix(int part);    // the part's volume and controllers
  void sendPart(int part);   // its load (then the mix follows the load's reply), or its mix
  void sendEverything();
  void onStatus(const control::OscMessage& message, Clock::time_point now);
  void onLoadDone(const control::OscMessage& message);
  void onError(const control::OscMessage& message);
  void onControls(const control::OscMessage& message);
  void finishRestore(int part);
  int partOfError(const std::string& reason) const;

  control::HostSettings settings_;
  OscTransport& transport_;
  HostTiming timing_;
  HostState state_ = HostState::Connecting;
  Clock::time_point lastStatus_{}, lastSubscribe_{}, lastPing_{}, pingSent_{};
  bool pingOutstanding_ = false, heard_ = false;
  double roundTripMs_ = -1.0;
  int returns_ = 0;
  std::vector<std::pair<std::string, double>> status_;
  std::map<int, PartReport> reports_;
  std::set<int> restoring_;  // parts whose restored load has not replied yet
  std::string error_;        // the host's last /spindle/error that names no part
};

}  // namespace spindle::cluster
