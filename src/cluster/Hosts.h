#pragma once
// Hosts: the master's remote Spindles (`--host NAME=ADDR[:PORT][@JACKCLIENT]`, a session's [host]
// sections), one RemoteHost each over its own UdpTransport, served by the hosts thread:
//
//   hosts thread: poll every host's socket (at most 50 ms) ─► [signing: ReplyVerifier]
//                 ─► decode (OscDispatcher) ─► RemoteHost::onMessage;
//                 RemoteHost::tick (subscribe, ping, lost)
//
// With the cluster secret (setSigning) every message to a host leaves signed
// (SignedTransport) and only a host's verified signed replies are read; the others are
// counted per host (HostView::refusedReplies) and dropped.
//   control / gui thread: HostControl calls ─► RemoteHost (send at once, remember)
//
// Everything runs under one mutex, held only for in-memory work and non-blocking
// sends: no call waits on the network. The audio thread never sees any of it.
//
// Threads: start()/stop() on main (or gui); HostControl methods on any thread.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cluster/RemoteHost.h"
#include "cluster/SignedTransport.h"
#include "cluster/UdpTransport.h"
#include "control/HostControl.h"
#include "control/OscDispatcher.h"

namespace spindle::cluster {

class Hosts final : public control::HostControl {
 public:
  explicit Hosts(HostTiming timing = {}) : timing_(timing) {}
  ~Hosts();
  Hosts(const Hosts&) = delete;
  Hosts& operator=(const Hosts&) = delete;

  // Signed control, set before the first add(): messages to every host are signed with
  // `secret` under `identity` (the master's name), and only verified replies are read.
  void setSigning(control::Bytes secret, std::string identity);
  // The master's sample rate, for each host's audio round trip in ms (HostView);
  // until it is set, the host's own sample_rate is used.
  void setSampleRate(double rate);

  // Adds a host (opens its socket) and starts the hosts thread with the first one;
  // false with `error` for a duplicate name or a socket that cannot be opened.
  [[nodiscard]] bool add(const control::HostSettings& host, std::string& error);
  void stop();  // ends the hosts thread (the destructor calls it)
  bool empty();

  // ---- HostControl: any thread ----
  std::vector<control::HostView> hosts() override;
  bool load(const std::string& host, int part, const std::string& path, std::string& error) override;
  bool setVolume(const std::string& host, int part, float db, std::string& error) override;
  bool setControl(const std::string& host, int part, int cc, int value, std::string& error) override;
  std::vector<control::HostSettings> settings() override;
  void restore(const std::vector<control::HostSettings>& hosts) override;

 private:
  struct Entry {
    UdpTransport socket;
    std::unique_ptr<SignedTransport> signer;  // with a secret: what RemoteHost sends through
    std::optional<ReplyVerifier> verifier;    // with a secret: what it reads
    std::unique_ptr<RemoteHost> host;
  };
  control::HostView view(const Entry& entry, Clock::time_point now) const;  // under mutex_
  bool addEntry(const control::HostSettings& host, std::string& error);
  bool start(std::string& error);  // under startMutex_
  void run();              // hosts thread
  void receiveAll();       // hosts thread, under mutex_
  RemoteHost* find(const std::string& name, std::string& error);  // under mutex_

  HostTiming timing_;
  std::mutex mutex_;  // guards entries_, every RemoteHost, the secret and the rate
  control::Bytes secret_;  // empty: plain UDP
  std::string identity_;
  double sampleRate_ = 0.0;
  std::vector<std::unique_ptr<Entry>> entries_;
  control::OscDispatcher dispatcher_;  // hosts thread
  std::mutex startMutex_;  // one start() only
  std::atomic<bool> running_{false};
  int wake_[2] = {-1, -1};  // a pipe: a new host or stop() wakes poll()
  std::thread thread_;
};

}  // namespace spindle::cluster
