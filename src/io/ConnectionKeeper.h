#pragma once
// ConnectionKeeper: the thread that makes Spindle's connections (Connections.h) on a
// sound server and keeps its ConnectionReport. A backend derives from it: inventory()
// lists the ports present, link() makes or breaks one link; the backend's own
// notifications (a port came or went, a link changed) call poke().
//
//   start(server)  the server connection is up: the thread scans at once, then after
//                  every poke() and at least once a second
//   stop()         before the client closes: joins the thread
//
// Threads: setPolicy, setLink, report, takeMessages: any thread (one mutex, never held
// while talking to the server). poke(): any thread but the audio thread. inventory()
// and link() run on the keeper's thread only.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/Connections.h"

namespace spindle::io {

class ConnectionKeeper {
 public:
  virtual ~ConnectionKeeper();
  ConnectionKeeper() = default;
  ConnectionKeeper(const ConnectionKeeper&) = delete;
  ConnectionKeeper& operator=(const ConnectionKeeper&) = delete;

  void start(const std::string& server);
  void stop();
  void poke();
  void setPolicy(ConnectionPolicy policy);
  ConnectionPolicy policy() const;
  ConnectionReport report() const;
  // Connects (on) or disconnects one of Spindle's ports by hand (the window, OSC).
  void setLink(const PortLink& link, bool on);
  // The hosts a master routes (Connections.h, "Hosts"); any thread.
  void setHostRoutes(std::vector<HostRoute> routes);
  // A port of the server went away (the backend's notification; any thread but the
  // audio thread). Spindle's links to it are made again once a port of that name is
  // there, even when it came back before the next scan.
  void portGone(std::string name);
  // A client of the server closed (a program that quit): the links of its ports are
  // forgotten, as links the user broke, and not made again when a client of that name
  // comes back (it connects itself, or its session does). A port that goes and comes
  // back with its client staying (a driver restarting) keeps them.
  void clientGone(std::string name);
  // A line for takeMessages (the backend's own news).
  void say(std::string message);
  // What happened since the last call, one line each ("MIDI input connected: ...",
  // "cannot connect out_L to ...": the headless session prints them).
  std::vector<std::string> takeMessages();

 protected:
  virtual PortInventory inventory() = 0;
  virtual bool link(const PortLink& link, bool on, std::string& error) = 0;
  // Connects two ports that are not Spindle's; a server that cannot says so in `error`.
  virtual bool linkPeers(const PeerLink& link, std::string& error) {
    (void)link;
    error = "host routing needs JACK";
    return false;
  }

 private:
  void run();
  void scan();
  void apply(const std::vector<PortLink>& links, bool on);
  void publish(const PortInventory& now);
  void sayRoutes(const std::vector<HostRouteState>& routes);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool running_ = false, poked_ = false;
  ConnectionPlanner planner_;          // keeper thread (policy handed over under mutex_)
  ConnectionPolicy policy_;            // mutex_
  bool policyChanged_ = false;         // mutex_
  std::vector<HostRoute> routes_;      // mutex_
  bool routesChanged_ = false;         // mutex_
  std::deque<std::pair<PortLink, bool>> manual_;  // mutex_: setLink requests
  std::vector<std::string> gone_;      // mutex_: portGone names since the last scan
  std::vector<std::string> goneClients_;  // mutex_: clientGone names since the last scan
  ConnectionReport report_;            // mutex_
  std::vector<std::string> messages_;  // mutex_
  std::string server_;
  std::thread thread_;
};

}  // namespace spindle::io
