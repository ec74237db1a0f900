#pragma once
// PipeWireGraph: what the PipeWire registry shows of the graph (nodes, ports, links,
// the default sink), and the rules that turn it into a PortInventory (Connections.h).
//
//   playback      the default sink's audio inputs in channel order (FL, FR, ...). The
//                 default sink: the "default" metadata's default.audio.sink, else the
//                 Audio/Sink with the highest priority.session, else the first one
//   hardwareMidi  "8 bit raw midi" outputs of a MIDI bridge (media.class Midi/Bridge,
//                 as the session manager makes for ALSA MIDI) or marked port.physical
//   ports, links  full names "node.name:port.name", as pw-link and pw-jack show them
//
// A plain value: PipeWireConnections fills it on the pw-loop thread and reads it on the
// keeper's thread, both under the thread loop's lock.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "io/Connections.h"

struct spa_dict;

namespace spindle::io {

class PipeWireGraph {
 public:
  // A registry global (a node, port or link: the rest are ignored) and its properties.
  void add(uint32_t id, const char* type, const spa_dict* props);
  // A global went away (any id: unknown ones are ignored); a port's full name, else "".
  std::string remove(uint32_t id);
  // The "default" metadata's default.audio.sink: JSON {"name": "..."}; null: none.
  void setDefaultSink(const char* json);

  // `self`: Spindle's node id (SPA_ID_INVALID until PipeWire has bound it).
  PortInventory inventory(uint32_t self) const;
  // The port of node `self` called `name`, or the port with the full name `name`.
  std::optional<uint32_t> ownPort(uint32_t self, const std::string& name) const;
  std::optional<uint32_t> portNamed(const std::string& fullName) const;
  std::optional<uint32_t> linkBetween(uint32_t outputPort, uint32_t inputPort) const;
  bool isOutput(uint32_t port) const;
  uint32_t nodeOf(uint32_t port) const;
  // out_L, out_R and midi_in of node `self` are all in the graph.
  bool hasOwnPorts(uint32_t self) const;

 private:
  struct Node {
    std::string name, mediaClass;
    int priority = 0;  // priority.session
  };
  struct Port {
    uint32_t node = 0;
    uint32_t index = 0;  // port.id: the port's number on its node
    std::string name, format, channel;
    bool output = false, physical = false;
  };
  struct Link {
    uint32_t output = 0, input = 0;  // port ids
  };

  std::string fullName(const Port& port) const;
  std::optional<uint32_t> defaultSink() const;
  std::vector<std::string> playback() const;
  std::vector<std::string> hardwareMidi(uint32_t self) const;
  std::vector<PortLink> ownLinks(uint32_t self) const;

  std::map<uint32_t, Node> nodes_;
  std::map<uint32_t, Port> ports_;
  std::map<uint32_t, Link> links_;
  std::string defaultSink_;  // a node.name; empty: none set
};

}  // namespace spindle::io
