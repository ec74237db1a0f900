#pragma once
// Hosts: the master's remote Spindles (`--host NAME=ADDR[:PORT]`, a session's [host]
// sections), one RemoteHost each over its own UdpTransport, served by the hosts thread:
//
//   hosts thread: poll every host's socket (at most 50 ms) ─► decode (OscDispatcher)
//                 ─► RemoteHost::onMessage;  RemoteHost::tick (subscribe, ping, lost)
//   control / gui thread: HostControl calls ─► RemoteHost (send at once, remember)
//
// Everything runs under one mutex, held only for in-memory work and non-blocking
// sends: no call waits on the network. The audio thread never sees any of it.
//
// Threads: start()/stop() on main (or gui); HostControl methods on any thread.
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/RemoteHost.h"
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
    UdpTransport transport;
    std::unique_ptr<RemoteHost> host;
  };
  bool addEntry(const control::HostSettings& host, std::string& error);
  bool start(std::string& error);  // under startMutex_
  void run();              // hosts thread
  void receiveAll();       // hosts thread, under mutex_
  RemoteHost* find(const std::string& name, std::string& error);  // under mutex_

  HostTiming timing_;
  std::mutex mutex_;  // guards entries_ and every RemoteHost
  std::vector<std::unique_ptr<Entry>> entries_;
  control::OscDispatcher dispatcher_;  // hosts thread
  std::mutex startMutex_;  // one start() only
  std::atomic<bool> running_{false};
  int wake_[2] = {-1, -1};  // a pipe: a new host or stop() wakes poll()
  std::thread thread_;
};

}  // namespace spindle::cluster
