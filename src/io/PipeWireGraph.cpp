#include "io/PipeWireGraph.h"

#include <pipewire/pipewire.h>
#include <spa/param/audio/raw-types.h>
#include <spa/utils/dict.h>
#include <spa/utils/json.h>
#include <spa/utils/string.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <tuple>

namespace spindle::io {

namespace {

// The ports the default links are made from: until PipeWire shows all of them, the
// inventory offers no default targets (the planner makes the audio link only once).
constexpr const char* kOwnPorts[] = {"out_L", "out_R", "midi_in"};
constexpr const char* kMidiFormat = "8 bit raw midi";

std::string text(const spa_dict* props, const char* key) {
  const char* value = spa_dict_lookup(props, key);
  return value ? value : "";
}

uint32_t number(const spa_dict* props, const char* key, uint32_t fallback = 0) {
  uint32_t value = fallback;
  const char* str = spa_dict_lookup(props, key);
  return str && spa_atou32(str, &value, 10) ? value : fallback;
}

// A channel's place in SPA's channel order (MONO, FL, FR, FC, LFE, ..., AUX0, AUX1 ...):
// the order a sink's inputs are handed to out_L, out_R. Unknown: last.
uint32_t channelRank(const std::string& channel) {
  for (const spa_type_info* info = spa_type_audio_channel; info->name; ++info) {
    const char* shortName = std::strrchr(info->name, ':');
    if (shortName && channel == shortName + 1) return info->type;
  }
  return std::numeric_limits<uint32_t>::max();
}

// {"name": "alsa_output.pci-0000_00_1f.3.analog-stereo"} -> the name; anything else: "".
std::string nameInJson(const char* json) {
  spa_json top, object;
  spa_json_init(&top, json, std::strlen(json));
  if (spa_json_enter_object(&top, &object) <= 0) return {};
  char key[256];
  while (spa_json_get_string(&object, key, sizeof key) > 0) {
    if (std::strcmp(key, "name") == 0) {
      char name[1024];
      return spa_json_get_string(&object, name, sizeof name) > 0 ? name : "";
    }
    const char* value = nullptr;
    if (spa_json_next(&object, &value) <= 0) break;
  }
  return {};
}

}  // namespace

void PipeWireGraph::add(uint32_t id, const char* type, const spa_dict* props) {
  if (!type || !props) return;
  if (std::strcmp(type, PW_TYPE_INTERFACE_Node) == 0) {
    nodes_[id] = {text(props, PW_KEY_NODE_NAME), text(props, PW_KEY_MEDIA_CLASS),
                  static_cast<int>(number(props, PW_KEY_PRIORITY_SESSION))};
  } else if (std::strcmp(type, PW_TYPE_INTERFACE_Port) == 0) {
    Port port;
    port.node = number(props, PW_KEY_NODE_ID, SPA_ID_INVALID);
    port.index = number(props, PW_KEY_PORT_ID);
    port.name = text(props, PW_KEY_PORT_NAME);
    port.format = text(props, PW_KEY_FORMAT_DSP);
    port.channel = text(props, PW_KEY_AUDIO_CHANNEL);
    port.output = text(props, PW_KEY_PORT_DIRECTION) == "out";
    port.physical = spa_atob(spa_dict_lookup(props, PW_KEY_PORT_PHYSICAL));
    if (!port.name.empty() && port.node != SPA_ID_INVALID) ports_[id] = std::move(port);
  } else if (std::strcmp(type, PW_TYPE_INTERFACE_Link) == 0) {
    links_[id] = {number(props, PW_KEY_LINK_OUTPUT_PORT, SPA_ID_INVALID),
                  number(props, PW_KEY_LINK_INPUT_PORT, SPA_ID_INVALID)};
  }
}

std::string PipeWireGraph::remove(uint32_t id) {
  std::string name;
  if (const auto port = ports_.find(id); port != ports_.end()) name = fullName(port->second);
  nodes_.erase(id);
  ports_.erase(id);
  links_.erase(id);
  return name;
}

void PipeWireGraph::setDefaultSink(const char* json) { defaultSink_ = json ? nameInJson(json) : ""; }

std::string PipeWireGraph::fullName(const Port& port) const {
  const auto node = nodes_.find(port.node);
  return node == nodes_.end() ? "" : node->second.name + ":" + port.name;
}

// The metadata names the sink the session manager chose; without one (no session
// manager, or it named a sink that is gone) the sink a session manager would choose.
std::optional<uint32_t> PipeWireGraph::defaultSink() const {
  std::optional<uint32_t> best;
  for (const auto& [id, node] : nodes_) {
    if (!defaultSink_.empty() && node.name == defaultSink_) return id;
    if (node.mediaClass == "Audio/Sink" && (!best || node.priority > nodes_.at(*best).priority)) best = id;
  }
  return best;
}

std::vector<std::string> PipeWireGraph::playback() const {
  const std::optional<uint32_t> sink = defaultSink();
  if (!sink) return {};
  std::vector<const Port*> inputs;
  for (const auto& [id, port] : ports_)
    if (port.node == *sink && !port.output && port.format.find("audio") != std::string::npos) inputs.push_back(&port);
  std::sort(inputs.begin(), inputs.end(), [](const Port* a, const Port* b) {
    return std::tuple(channelRank(a->channel), a->index) < std::tuple(channelRank(b->channel), b->index);
  });
  std::vector<std::string> names;
  for (const Port* port : inputs) names.push_back(fullName(*port));
  return names;
}

std::vector<std::string> PipeWireGraph::hardwareMidi(uint32_t self) const {
  std::vector<std::string> names;
  for (const auto& [id, port] : ports_) {
    const auto node = nodes_.find(port.node);
    if (!port.output || port.format != kMidiFormat || node == nodes_.end() || port.node == self) continue;
    if (port.physical || node->second.mediaClass == "Midi/Bridge") names.push_back(fullName(port));
  }
  return names;
}

std::vector<PortLink> PipeWireGraph::ownLinks(uint32_t self) const {
  std::vector<PortLink> links;
  for (const auto& [id, link] : links_) {
    const auto out = ports_.find(link.output);
    const auto in = ports_.find(link.input);
    if (out == ports_.end() || in == ports_.end()) continue;
    if (out->second.node == self) links.push_back({out->second.name, fullName(in->second)});
    else if (in->second.node == self) links.push_back({in->second.name, fullName(out->second)});
  }
  return links;
}

bool PipeWireGraph::hasOwnPorts(uint32_t self) const {
  return std::all_of(std::begin(kOwnPorts), std::end(kOwnPorts),
                     [&](const char* name) { return ownPort(self, name).has_value(); });
}

PortInventory PipeWireGraph::inventory(uint32_t self) const {
  PortInventory now;
  for (const auto& [id, port] : ports_)
    if (std::string name = fullName(port); !name.empty()) now.ports.push_back(std::move(name));
  now.links = ownLinks(self);
  if (!hasOwnPorts(self)) return now;
  now.playback = playback();
  now.hardwareMidi = hardwareMidi(self);
  return now;
}

std::optional<uint32_t> PipeWireGraph::ownPort(uint32_t self, const std::string& name) const {
  for (const auto& [id, port] : ports_)
    if (port.node == self && port.name == name) return id;
  return std::nullopt;
}

std::optional<uint32_t> PipeWireGraph::portNamed(const std::string& name) const {
  for (const auto& [id, port] : ports_)
    if (fullName(port) == name) return id;
  return std::nullopt;
}

std::optional<uint32_t> PipeWireGraph::linkBetween(uint32_t outputPort, uint32_t inputPort) const {
  for (const auto& [id, link] : links_)
    if (link.output == outputPort && link.input == inputPort) return id;
  return std::nullopt;
}

bool PipeWireGraph::isOutput(uint32_t port) const {
  const auto it = ports_.find(port);
  return it != ports_.end() && it->second.output;
}

uint32_t PipeWireGraph::nodeOf(uint32_t port) const {
  const auto it = ports_.find(port);
  return it == ports_.end() ? SPA_ID_INVALID : it->second.node;
}

}  // namespace spindle::io
