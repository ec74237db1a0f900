#pragma once
// JackConnections: the ConnectionKeeper (ConnectionKeeper.h) of a JACK client.
//   playback      the physical audio playback ports (system:playback_1, _2 ...)
//   hardwareMidi  the physical MIDI outputs: a MIDI-capable driver's capture ports,
//                 a2jmidid's ports (physical and terminal, as a2jmidid registers them)
// JackBackend pokes it from JACK's port registration and port connect callbacks.
//
// Threads: the keeper's thread makes every server request here (never a JACK
// notification thread: a request from a callback can deadlock the server). JACK2's
// client library does not serialise requests that two threads send on one client's
// socket (their replies cross), so every server request of this client made while the
// keeper runs holds serverRequests(): the keeper's, and JackBackend's host ports'.
#include <jack/jack.h>

#include <mutex>
#include <string>
#include <vector>

#include "io/ConnectionKeeper.h"

namespace spindle::io {

class JackConnections final : public ConnectionKeeper {
 public:
  ~JackConnections() override { stop(); }
  // The client and its ports, set while the keeper is stopped.
  void attach(jack_client_t* client, std::vector<jack_port_t*> ports) {
    client_ = client;
    ports_ = std::move(ports);
  }
  // A host's to_NAME port, registered while running (any thread but the keeper's); its
  // links are reported apart (PortInventory::hostLinks). Cleared by attach's next call.
  void addHostPort(jack_port_t* port) {
    std::lock_guard lock(hostPortsMutex_);
    hostPorts_.push_back(port);
  }
  // Held around a server request made while the keeper runs (any thread but the audio
  // thread and JACK's notification thread).
  [[nodiscard]] std::unique_lock<std::mutex> serverRequests() { return std::unique_lock(serverMutex_); }
  void clearHostPorts() {
    std::lock_guard lock(hostPortsMutex_);
    hostPorts_.clear();
  }

 protected:
  PortInventory inventory() override;
  bool link(const PortLink& link, bool on, std::string& error) override;
  bool linkPeers(const PeerLink& link, std::string& error) override;

 private:
  jack_port_t* own(const std::string& shortName);
  void addLinks(jack_port_t* port, std::vector<PortLink>& links) const;
  std::vector<PeerLink> peerLinks() const;

  jack_client_t* client_ = nullptr;
  std::vector<jack_port_t*> ports_;
  std::mutex serverMutex_;  // one server request at a time (see Threads above)
  std::mutex hostPortsMutex_;
  std::vector<jack_port_t*> hostPorts_;  // hostPortsMutex_
};

}  // namespace spindle::io
