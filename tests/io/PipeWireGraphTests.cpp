// What Spindle's PipeWire node links to, from registry globals as a headless PipeWire
// and a session manager announce them (PipeWireGraph.h): which sink, in which channel
// order, which MIDI sources, and Spindle's own links by name.
#include <pipewire/pipewire.h>
#include <spa/utils/dict.h>

#include <string>
#include <vector>

#include "catch.h"
#include "io/PipeWireGraph.h"

namespace pipe_wire_graph_tests {

using namespace spindle::io;

namespace {

using Props = std::vector<std::pair<std::string, std::string>>;

void add(PipeWireGraph& graph, uint32_t id, const char* type, const Props& props) {
  std::vector<spa_dict_item> items;
  for (const auto& [key, value] : props) items.push_back({key.c_str(), value.c_str()});
  spa_dict dict{};
  dict.n_items = static_cast<uint32_t>(items.size());
  dict.items = items.data();
  graph.add(id, type, &dict);
}

void node(PipeWireGraph& g, uint32_t id, const std::string& name, const std::string& mediaClass, int priority = 0) {
  add(g, id, PW_TYPE_INTERFACE_Node,
      {{PW_KEY_NODE_NAME, name}, {PW_KEY_MEDIA_CLASS, mediaClass}, {PW_KEY_PRIORITY_SESSION, std::to_string(priority)}});
}

void port(PipeWireGraph& g, uint32_t id, uint32_t nodeId, const std::string& name, const std::string& direction,
          const std::string& format, const std::string& channel = "", bool physical = false) {
  add(g, id, PW_TYPE_INTERFACE_Port,
      {{PW_KEY_NODE_ID, std::to_string(nodeId)}, {PW_KEY_PORT_ID, std::to_string(id % 10)}, {PW_KEY_PORT_NAME, name},
       {PW_KEY_PORT_DIRECTION, direction}, {PW_KEY_FORMAT_DSP, format}, {PW_KEY_AUDIO_CHANNEL, channel},
       {PW_KEY_PORT_PHYSICAL, physical ? "true" : "false"}});
}

constexpr uint32_t kSelf = 50;
const std::string kAudio = "32 bit float mono audio", kMidi = "8 bit raw midi";

// Spindle's node and ports, and a stereo sink whose inputs are announced FR first.
PipeWireGraph spindleAndSink(const std::string& sinkName, int priority) {
  PipeWireGraph g;
  node(g, kSelf, "spindle", "");
  port(g, 51, kSelf, "out_L", "out", kAudio);
  port(g, 52, kSelf, "out_R", "out", kAudio);
  port(g, 53, kSelf, "midi_in", "in", kMidi);
  node(g, 30, sinkName, "Audio/Sink", priority);
  port(g, 32, 30, "playback_FR", "in", kAudio, "FR");
  port(g, 31, 30, "playback_FL", "in", kAudio, "FL");
  port(g, 33, 30, "monitor_FL", "out", kAudio, "FL");
  return g;
}

}  // namespace

TEST_CASE("the default sink's inputs come in channel order, FL before FR", "[io][connections][pipewire]") {
  const PipeWireGraph g = spindleAndSink("test-sink", 1000);
  CHECK(g.inventory(kSelf).playback == std::vector<std::string>{"test-sink:playback_FL", "test-sink:playback_FR"});
}

TEST_CASE("the default sink: the metadata's, else the highest priority.session", "[io][connections][pipewire]") {
  PipeWireGraph g = spindleAndSink("test-sink", 1000);
  node(g, 40, "other-sink", "Audio/Sink", 2000);
  port(g, 41, 40, "playback_FL", "in", kAudio, "FL");
  CHECK(g.inventory(kSelf).playback == std::vector<std::string>{"other-sink:playback_FL"});
  g.setDefaultSink(R"({ "name": "test-sink" })");
  CHECK(g.inventory(kSelf).playback.front() == "test-sink:playback_FL");
  g.setDefaultSink(R"({"name":"gone-sink"})");  // names a sink that is not there
  CHECK(g.inventory(kSelf).playback.front() == "other-sink:playback_FL");
  g.setDefaultSink(nullptr);
  CHECK(g.remove(41) == "other-sink:playback_FL");  // a port: its full name, for the keeper
  CHECK(g.remove(40).empty());                      // a node: no name
  CHECK(g.inventory(kSelf).playback.front() == "test-sink:playback_FL");
}

TEST_CASE("no default targets until Spindle's own ports are all in the graph", "[io][connections][pipewire]") {
  PipeWireGraph g = spindleAndSink("test-sink", 1000);
  node(g, 60, "bridge", "Midi/Bridge");
  port(g, 61, 60, "capture_1", "out", kMidi);
  g.remove(53);  // midi_in not announced yet
  CHECK(g.inventory(kSelf).playback.empty());
  CHECK(g.inventory(kSelf).hardwareMidi.empty());
  port(g, 53, kSelf, "midi_in", "in", kMidi);
  CHECK_FALSE(g.inventory(kSelf).playback.empty());
  CHECK(g.inventory(kSelf).hardwareMidi == std::vector<std::string>{"bridge:capture_1"});
}

TEST_CASE("hardware MIDI: a bridge's or a physical port's outputs, never a program's or Spindle's own",
          "[io][connections][pipewire]") {
  PipeWireGraph g = spindleAndSink("test-sink", 1000);
  node(g, 60, "Midi-Bridge", "Midi/Bridge");
  port(g, 61, 60, "Keystation 49 (capture)", "out", kMidi);
  port(g, 62, 60, "Synth (playback)", "in", kMidi);                 // an input: nothing to follow
  node(g, 70, "USB Keyboard", "");
  port(g, 71, 70, "capture", "out", kMidi, "", true);               // physical (pw-jack's a2j-like port)
  node(g, 80, "sequencer", "");
  port(g, 81, 80, "out", "out", kMidi);                             // a program: not followed
  port(g, 54, kSelf, "midi_out", "out", kMidi, "", true);            // Spindle's own
  CHECK(g.inventory(kSelf).hardwareMidi ==
        std::vector<std::string>{"Midi-Bridge:Keystation 49 (capture)", "USB Keyboard:capture"});
}

TEST_CASE("Spindle's links by its port's short name and the peer's full name", "[io][connections][pipewire]") {
  PipeWireGraph g = spindleAndSink("test-sink", 1000);
  node(g, 70, "USB Keyboard", "");
  port(g, 71, 70, "capture", "out", kMidi, "", true);
  add(g, 90, PW_TYPE_INTERFACE_Link, {{PW_KEY_LINK_OUTPUT_PORT, "51"}, {PW_KEY_LINK_INPUT_PORT, "31"}});
  add(g, 91, PW_TYPE_INTERFACE_Link, {{PW_KEY_LINK_OUTPUT_PORT, "71"}, {PW_KEY_LINK_INPUT_PORT, "53"}});
  add(g, 92, PW_TYPE_INTERFACE_Link, {{PW_KEY_LINK_OUTPUT_PORT, "33"}, {PW_KEY_LINK_INPUT_PORT, "32"}});  // not ours
  const PortInventory now = g.inventory(kSelf);
  CHECK(now.links == std::vector<PortLink>{{"out_L", "test-sink:playback_FL"}, {"midi_in", "USB Keyboard:capture"}});
  CHECK(g.linkBetween(51, 31) == 90u);
  CHECK(g.portNamed("USB Keyboard:capture") == 71u);
  g.remove(90);
  CHECK(g.inventory(kSelf).links.size() == 1);
}

}  // namespace pipe_wire_graph_tests
