// The connection rules (io/Connections.h) on port inventories as JACK or PipeWire
// would show them: what is connected at start, on hot-plug, on a restore and after a
// server restart, and what is left alone.
#include "catch.h"
#include "io/AlsaSeqInput.h"
#include "io/Connections.h"

namespace connection_planner_tests {

using namespace spindle::io;

namespace {

PortInventory server(std::vector<std::string> midi = {}) {
  PortInventory now;
  now.playback = {"system:playback_1", "system:playback_2"};
  now.hardwareMidi = std::move(midi);
  now.ports = {"system:playback_1", "system:playback_2", "spindle:out_L", "spindle:out_R", "spindle:midi_in"};
  now.ports.insert(now.ports.end(), now.hardwareMidi.begin(), now.hardwareMidi.end());
  return now;
}

// The server after the plan was carried out.
void carryOut(PortInventory& now, const ConnectionPlan& plan) {
  for (const PortLink& link : plan.disconnect) std::erase(now.links, link);
  for (const PortLink& link : plan.connect) now.links.push_back(link);
}

const PortLink kOutL{"out_L", "system:playback_1"}, kOutR{"out_R", "system:playback_2"};

}  // namespace

TEST_CASE("at start the outputs go to the first two playback ports and every keyboard to midi_in",
          "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory now = server({"kb:capture", "pads:capture"});
  const ConnectionPlan plan = planner.plan(now);
  CHECK(plan.connect == std::vector<PortLink>{kOutL, kOutR, {"midi_in", "kb:capture"}, {"midi_in", "pads:capture"}});
  CHECK(plan.disconnect.empty());
  carryOut(now, plan);
  CHECK(planner.plan(now).empty());  // nothing twice
}

TEST_CASE("a mono playback device gets both outputs; no playback port, no audio link", "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory mono = server();
  mono.playback = {"system:playback_1"};
  CHECK(planner.plan(mono).connect == std::vector<PortLink>{kOutL, {"out_R", "system:playback_1"}});
  ConnectionPlanner none;
  PortInventory empty = server({"kb:capture"});
  empty.playback.clear();
  CHECK(none.plan(empty).connect == std::vector<PortLink>{{"midi_in", "kb:capture"}});
  // A sink that appears later (PipeWire) gets the outputs then, once.
  empty.links.push_back({"midi_in", "kb:capture"});
  empty.playback = {"sink:playback_FL", "sink:playback_FR"};
  CHECK(none.plan(empty).connect == std::vector<PortLink>{{"out_L", "sink:playback_FL"}, {"out_R", "sink:playback_FR"}});
}

TEST_CASE("outputs already connected are left as they are", "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory now = server();
  now.links = {{"out_L", "recorder:in"}};
  CHECK(planner.plan(now).empty());
}

TEST_CASE("a keyboard plugged in later is connected; one the user unplugged from Spindle stays so",
          "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory now = server({"kb:capture"});
  carryOut(now, planner.plan(now));
  now.hardwareMidi.push_back("late:capture");
  now.ports.push_back("late:capture");
  CHECK(planner.plan(now).connect == std::vector<PortLink>{{"midi_in", "late:capture"}});
  now.links.push_back({"midi_in", "late:capture"});
  std::erase(now.links, PortLink{"midi_in", "kb:capture"});  // the user disconnects kb
  CHECK(planner.plan(now).empty());
  // kb goes away and comes back: decided on afresh.
  std::erase(now.hardwareMidi, std::string("kb:capture"));
  CHECK(planner.plan(now).empty());
  now.hardwareMidi.push_back("kb:capture");
  CHECK(planner.plan(now).connect == std::vector<PortLink>{{"midi_in", "kb:capture"}});
}

TEST_CASE("links whose peer went away come back with it; a link the user broke does not",
          "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory now = server({"kb:capture"});
  carryOut(now, planner.plan(now));
  // A NetJACK2 slave's driver restarts: system:playback_* go, with their links.
  const PortInventory full = now;
  std::erase(now.links, kOutL);
  std::erase(now.links, kOutR);
  std::erase(now.ports, std::string("system:playback_1"));
  std::erase(now.ports, std::string("system:playback_2"));
  now.playback.clear();
  CHECK(planner.plan(now).empty());
  CHECK(planner.plan(now).empty());  // nothing while they are away
  now.ports = full.ports;
  now.playback = full.playback;
  CHECK(planner.plan(now).connect == std::vector<PortLink>{kOutL, kOutR});
  carryOut(now, ConnectionPlan{{kOutL, kOutR}, {}, {}});
  CHECK(planner.plan(now).empty());
  // The user disconnects out_R; later its peer goes and comes back: it stays disconnected.
  std::erase(now.links, kOutR);
  CHECK(planner.plan(now).empty());
  std::erase(now.ports, std::string("system:playback_2"));
  CHECK(planner.plan(now).empty());
  now.ports = full.ports;
  CHECK(planner.plan(now).empty());
}

TEST_CASE("a peer gone and back between two scans gets its links back, its notice on time or one scan late",
          "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory now = server({"kb:capture"});
  carryOut(now, planner.plan(now));
  // The driver restart took system:playback_1 and _2 and brought them back before the
  // next scan: the ports are there, their links are not, and the notices say they went.
  std::erase(now.links, kOutL);
  std::erase(now.links, kOutR);
  now.departed = {"system:playback_1", "system:playback_2"};
  CHECK(planner.plan(now).connect == std::vector<PortLink>{kOutL, kOutR});
  now.departed.clear();
  carryOut(now, ConnectionPlan{{kOutL, kOutR}, {}, {}});
  CHECK(planner.plan(now).empty());
  // The notice for playback_2 reaches the keeper only after a scan saw its link missing.
  std::erase(now.links, kOutR);
  CHECK(planner.plan(now).empty());
  now.departed = {"system:playback_2"};
  CHECK(planner.plan(now).connect == std::vector<PortLink>{kOutR});
  now.departed.clear();
  carryOut(now, ConnectionPlan{{kOutR}, {}, {}});
  CHECK(planner.plan(now).empty());
  // A link the user broke, its peer staying: a notice two scans later does not bring it back.
  std::erase(now.links, kOutR);
  CHECK(planner.plan(now).empty());
  CHECK(planner.plan(now).empty());
  now.departed = {"system:playback_2"};
  CHECK(planner.plan(now).empty());
}

TEST_CASE("the links of a program that quit are let go: one starting under its name is not linked by Spindle",
          "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory now = server();
  now.ports.push_back("jackrec:input1");
  carryOut(now, planner.plan(now));
  now.links.push_back({"out_L", "jackrec:input1"});  // the recorder connected itself
  CHECK(planner.plan(now).empty());
  // It quits: its port and its client go (their notices in one scan or in two).
  std::erase(now.links, PortLink{"out_L", "jackrec:input1"});
  std::erase(now.ports, std::string("jackrec:input1"));
  now.departed = {"jackrec:input1"};
  CHECK(planner.plan(now).empty());
  now.departed.clear();
  now.departedClients = {"jackrec"};
  CHECK(planner.plan(now).empty());
  now.departedClients.clear();
  // A new recorder of that name: Spindle leaves it to connect itself.
  now.ports.push_back("jackrec:input1");
  CHECK(planner.plan(now).empty());
  CHECK(planner.plan(now).empty());
}

TEST_CASE("the policy turns audio or MIDI off, or follows only the named devices", "[io][connections]") {
  ConnectionPlanner off;
  ConnectionPolicy policy;
  policy.audio = policy.midi = false;
  off.setPolicy(policy);
  CHECK(off.plan(server({"kb:capture"})).empty());
  ConnectionPlanner chosen;
  policy = {};
  policy.audio = false;
  policy.midiFrom = {"Keystation"};
  chosen.setPolicy(policy);
  CHECK(chosen.plan(server({"kb:capture", "a2j:Keystation 49 [20] (capture)"})).connect ==
        std::vector<PortLink>{{"midi_in", "a2j:Keystation 49 [20] (capture)"}});
  // Following turned on later connects the sources present now.
  policy.midiFrom.clear();
  chosen.setPolicy(policy);
  PortInventory now = server({"kb:capture", "a2j:Keystation 49 [20] (capture)"});
  now.links = {{"midi_in", "a2j:Keystation 49 [20] (capture)"}};
  CHECK(chosen.plan(now).connect == std::vector<PortLink>{{"midi_in", "kb:capture"}});
}

TEST_CASE("a restore makes the session's links instead of the defaults, each once its peer exists",
          "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory now = server({"kb:capture"});
  carryOut(now, planner.plan(now));  // the defaults
  ConnectionPolicy policy;
  policy.restore = true;
  policy.saved = {{"out_L", "system:playback_2"}, {"out_R", "system:playback_1"}, {"midi_in", "synth:capture"}};
  planner.setPolicy(policy);
  const ConnectionPlan plan = planner.plan(now);
  CHECK(plan.connect == std::vector<PortLink>{{"out_L", "system:playback_2"}, {"out_R", "system:playback_1"}});
  CHECK(plan.disconnect == std::vector<PortLink>{kOutL, kOutR, {"midi_in", "kb:capture"}});
  carryOut(now, plan);
  CHECK(planner.plan(now).empty());
  now.hardwareMidi.push_back("synth:capture");  // the session's keyboard is plugged in
  now.ports.push_back("synth:capture");
  CHECK(planner.plan(now).connect == std::vector<PortLink>{{"midi_in", "synth:capture"}});
}

TEST_CASE("after a server restart the links as they were come back, not the defaults", "[io][connections]") {
  ConnectionPlanner planner;
  PortInventory now = server({"kb:capture"});
  carryOut(now, planner.plan(now));
  // The user swaps the outputs by hand.
  now.links = {{"out_L", "system:playback_2"}, {"out_R", "system:playback_1"}, {"midi_in", "kb:capture"}};
  CHECK(planner.plan(now).empty());
  planner.serverStarted();
  PortInventory fresh = server();  // the keyboard is not back yet
  const ConnectionPlan plan = planner.plan(fresh);
  CHECK(plan.connect == std::vector<PortLink>{{"out_L", "system:playback_2"}, {"out_R", "system:playback_1"}});
  carryOut(fresh, plan);
  fresh.hardwareMidi = {"kb:capture"};
  fresh.ports.push_back("kb:capture");
  CHECK(planner.plan(fresh).connect == std::vector<PortLink>{{"midi_in", "kb:capture"}});
}

TEST_CASE("the ALSA sequencer follows hardware ports that can send, and no other", "[io][connections]") {
  const AlsaPortInfo keyboard{24, true, true, true, "Keystation 49:Keystation 49 MIDI 1"};
  CHECK(followsAlsaPort(keyboard, 128, {}));
  CHECK(followsAlsaPort(keyboard, 128, {"Keystation"}));
  CHECK_FALSE(followsAlsaPort(keyboard, 128, {"Launchpad"}));
  CHECK_FALSE(followsAlsaPort(keyboard, 24, {}));  // Spindle's own client
  AlsaPortInfo port = keyboard;
  port.client = 0;  // System: timer and announce
  CHECK_FALSE(followsAlsaPort(port, 128, {}));
  port = {14, false, true, true, "Midi Through:Midi Through Port-0"};  // a software port
  CHECK_FALSE(followsAlsaPort(port, 128, {}));
  port = {20, true, false, true, "Synth:Synth MIDI 1"};  // a hardware port that only receives
  CHECK_FALSE(followsAlsaPort(port, 128, {}));
  port = {20, true, true, false, "Hidden:port"};
  CHECK_FALSE(followsAlsaPort(port, 128, {}));
}

}  // namespace connection_planner_tests
