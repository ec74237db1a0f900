#include "io/JackConnections.h"

#include <cerrno>
#include <cstring>

namespace spindle::io {

namespace {

// jack_get_ports' NULL-terminated list, freed with jack_free.
std::vector<std::string> portList(jack_client_t* client, const char* type, unsigned long flags) {
  std::vector<std::string> names;
  const char** ports = jack_get_ports(client, nullptr, type, flags);
  if (!ports) return names;
  for (const char** p = ports; *p; ++p) names.emplace_back(*p);
  jack_free(ports);
  return names;
}

}  // namespace

jack_port_t* JackConnections::own(const std::string& shortName) {
  for (jack_port_t* port : ports_)
    if (port && shortName == jack_port_short_name(port)) return port;
  std::lock_guard lock(hostPortsMutex_);
  for (jack_port_t* port : hostPorts_)
    if (shortName == jack_port_short_name(port)) return port;
  return nullptr;
}

void JackConnections::addLinks(jack_port_t* port, std::vector<PortLink>& links) const {
  const char** peers = jack_port_get_all_connections(client_, port);
  if (!peers) return;
  for (const char** p = peers; *p; ++p) links.push_back({jack_port_short_name(port), *p});
  jack_free(peers);
}

// The links of every NetJACK2 master client's returning audio (its from_slave_N ports).
std::vector<PeerLink> JackConnections::peerLinks() const {
  std::vector<PeerLink> links;
  for (const std::string& name : portList(client_, JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput)) {
    if (name.find(":from_slave_") == std::string::npos) continue;
    jack_port_t* port = jack_port_by_name(client_, name.c_str());
    const char** peers = port ? jack_port_get_all_connections(client_, port) : nullptr;
    if (!peers) continue;
    for (const char** p = peers; *p; ++p) links.push_back({name, *p});
    jack_free(peers);
  }
  return links;
}

PortInventory JackConnections::inventory() {
  const auto serving = serverRequests();
  PortInventory now;
  now.playback = portList(client_, JACK_DEFAULT_AUDIO_TYPE, JackPortIsPhysical | JackPortIsInput);
  now.hardwareMidi = portList(client_, JACK_DEFAULT_MIDI_TYPE, JackPortIsPhysical | JackPortIsOutput);
  now.ports = portList(client_, nullptr, 0);
  for (jack_port_t* port : ports_)
    if (port) addLinks(port, now.links);
  {
    std::lock_guard lock(hostPortsMutex_);
    for (jack_port_t* port : hostPorts_) addLinks(port, now.hostLinks);
  }
  now.peerLinks = peerLinks();
  for (const std::string& port : now.ports) {
    const std::size_t colon = port.find(':');
    if (colon == std::string::npos || port.compare(colon, std::string::npos, ":midi_to_slave_1") != 0) continue;
    const std::string client = port.substr(0, colon);
    if (char* uuid = jack_get_uuid_for_client_name(client_, client.c_str())) {
      now.clientIds[client] = uuid;
      jack_free(uuid);
    }
  }
  return now;
}

bool JackConnections::link(const PortLink& link, bool on, std::string& error) {
  jack_port_t* port = own(link.port);
  if (!port) {
    error = "Spindle has no port " + link.port;
    return false;
  }
  const auto serving = serverRequests();
  const bool output = (jack_port_flags(port) & JackPortIsOutput) != 0;
  const char* self = jack_port_name(port);
  const char* source = output ? self : link.peer.c_str();
  const char* destination = output ? link.peer.c_str() : self;
  const int rc = on ? jack_connect(client_, source, destination) : jack_disconnect(client_, source, destination);
  if (rc == 0 || (on && rc == EEXIST)) return true;
  error = "JACK refused (" + std::to_string(rc) + ")";
  return false;
}

bool JackConnections::linkPeers(const PeerLink& link, std::string& error) {
  const auto serving = serverRequests();
  const int rc = jack_connect(client_, link.source.c_str(), link.destination.c_str());
  if (rc == 0 || rc == EEXIST) return true;
  error = "JACK refused (" + std::to_string(rc) + ")";
  return false;
}

}  // namespace spindle::io
