// The host routes of the connection planner (io/Connections.h, "Hosts"): a NetJACK2
// master's to_NAME -> the host's netmanager client, and the host's audio back to where
// Spindle's outputs go; once per appearance of the client.
#include "catch.h"
#include "io/Connections.h"

namespace host_route_planner_tests {

using namespace spindle::io;

namespace {

// A master's server with Spindle's ports, its to_h1 port and the playback ports.
PortInventory master() {
  PortInventory now;
  now.playback = {"system:playback_1", "system:playback_2"};
  now.ports = {"system:playback_1", "system:playback_2", "spindle:out_L", "spindle:out_R", "spindle:midi_in",
               "spindle:to_h1"};
  return now;
}

// Host `client`'s netmanager client appears (mono: one from_slave port).
void appear(PortInventory& now, const std::string& client, bool stereo = true) {
  for (const char* port : {":midi_to_slave_1", ":from_slave_1", ":from_slave_2"})
    if (stereo || std::string(port) != ":from_slave_2") now.ports.push_back(client + port);
}

void vanish(PortInventory& now, const std::string& client) {
  std::erase_if(now.ports, [&](const std::string& p) { return p.rfind(client + ":", 0) == 0; });
  std::erase_if(now.hostLinks, [&](const PortLink& l) { return l.peer.rfind(client + ":", 0) == 0; });
  std::erase_if(now.peerLinks, [&](const PeerLink& l) { return l.source.rfind(client + ":", 0) == 0; });
}

void carryOut(PortInventory& now, const ConnectionPlan& plan) {
  for (const PortLink& link : plan.disconnect) std::erase(now.links, link);
  for (const PortLink& link : plan.connect)
    (link.port.rfind("to_", 0) == 0 ? now.hostLinks : now.links).push_back(link);
  for (const PeerLink& link : plan.connectPeers) now.peerLinks.push_back(link);
}

// A master whose planner routes h1 to spindle_host1, present and linked.
struct Routed {
  ConnectionPlanner planner;
  PortInventory now = master();
  Routed() {
    planner.setHostRoutes({{"h1", "spindle_host1"}});
    appear(now, "spindle_host1");
    carryOut(now, planner.plan(now));
  }
};

const std::vector<PeerLink> kAudioBack{{"spindle_host1:from_slave_1", "system:playback_1"},
                                       {"spindle_host1:from_slave_2", "system:playback_2"}};
const PortLink kMidi{"to_h1", "spindle_host1:midi_to_slave_1"};

}  // namespace

TEST_CASE("an absent host client is not routed; once present its MIDI and audio are, once", "[io][connections][hosts]") {
  ConnectionPlanner planner;
  planner.setHostRoutes({{"h1", "spindle_host1"}});
  PortInventory now = master();
  ConnectionPlan plan = planner.plan(now);
  CHECK(plan.connectPeers.empty());
  carryOut(now, plan);
  REQUIRE(hostRouteStates(planner.hostRoutes(), now).size() == 1);
  CHECK(describeRoute(hostRouteStates(planner.hostRoutes(), now)[0]) == "client absent");
  appear(now, "spindle_host1");
  plan = planner.plan(now);
  CHECK(plan.connect == std::vector<PortLink>{kMidi});
  CHECK(plan.connectPeers == kAudioBack);
  carryOut(now, plan);
  CHECK(planner.plan(now).empty());
  const HostRouteState state = hostRouteStates(planner.hostRoutes(), now)[0];
  CHECK(state == HostRouteState{"h1", "spindle_host1", "spindle_host1", true, true});
  CHECK(describeRoute(state) == "spindle_host1: MIDI + audio");
}

TEST_CASE("a host's audio follows where out_L and out_R go now; a mono host feeds both", "[io][connections][hosts]") {
  ConnectionPlanner planner;
  planner.setHostRoutes({{"h1", "spindle_host1"}});
  PortInventory now = master();
  now.links = {{"out_L", "mixer:in_3"}, {"out_L", "recorder:in_1"}, {"out_R", "mixer:in_4"}};
  appear(now, "spindle_host1", false);
  const ConnectionPlan plan = planner.plan(now);
  CHECK(plan.connect == std::vector<PortLink>{kMidi});  // the outputs are connected already
  CHECK(plan.connectPeers == std::vector<PeerLink>{{"spindle_host1:from_slave_1", "mixer:in_3"},
                                                   {"spindle_host1:from_slave_1", "recorder:in_1"},
                                                   {"spindle_host1:from_slave_1", "mixer:in_4"}});
}

TEST_CASE("a host link the user breaks stays broken until the client comes back", "[io][connections][hosts]") {
  Routed routed;
  ConnectionPlanner& planner = routed.planner;
  PortInventory& now = routed.now;
  now.hostLinks.clear();                       // the user breaks the MIDI link
  std::erase(now.peerLinks, kAudioBack[1]);    // and the right channel
  CHECK(planner.plan(now).empty());
  const HostRouteState broken = hostRouteStates(planner.hostRoutes(), now)[0];
  CHECK_FALSE(broken.midi);
  CHECK(broken.audio);
  CHECK(describeRoute(broken) == "spindle_host1: audio");
  vanish(now, "spindle_host1");
  CHECK(planner.plan(now).empty());
  appear(now, "spindle_host1");
  const ConnectionPlan again = planner.plan(now);
  CHECK(again.connect == std::vector<PortLink>{kMidi});
  CHECK(again.connectPeers == kAudioBack);
}

TEST_CASE("a client gone and back under the same name between two scans is routed again", "[io][connections][hosts]") {
  ConnectionPlanner planner;
  planner.setHostRoutes({{"h1", "spindle_host1"}});
  PortInventory now = master();
  appear(now, "spindle_host1");
  now.clientIds["spindle_host1"] = "4711";
  carryOut(now, planner.plan(now));
  CHECK(planner.plan(now).empty());
  vanish(now, "spindle_host1");  // the ports come back without their links, with a new identity
  appear(now, "spindle_host1");
  now.clientIds["spindle_host1"] = "4712";
  const ConnectionPlan again = planner.plan(now);
  CHECK(again.connect == std::vector<PortLink>{kMidi});
  CHECK(again.connectPeers == kAudioBack);
}

TEST_CASE("a host back while its old client lingers is routed as CLIENT-NN, the newest", "[io][connections][hosts]") {
  ConnectionPlanner planner;
  planner.setHostRoutes({{"h1", "spindle_host1"}, {"h2", "spindle_host2"}});
  PortInventory now = master();
  now.ports.push_back("spindle:to_h2");
  appear(now, "spindle_host1");
  appear(now, "spindle_host10");  // another host's client: not a suffix of spindle_host1
  appear(now, "spindle_host2");
  appear(now, "spindle_host2-01");
  appear(now, "spindle_host2-x");
  CHECK(presentClient({"h1", "spindle_host1"}, now.ports) == "spindle_host1");
  CHECK(presentClient({"h2", "spindle_host2"}, now.ports) == "spindle_host2-01");
  // JACK's client numbers say which is newest when a name was freed and taken again.
  CHECK(presentClient({"h2", "spindle_host2"}, now.ports, {{"spindle_host2", "31"}, {"spindle_host2-01", "27"}}) ==
        "spindle_host2");
  const ConnectionPlan plan = planner.plan(now);
  CHECK(plan.connect == std::vector<PortLink>{{"out_L", "system:playback_1"}, {"out_R", "system:playback_2"}, kMidi,
                                              {"to_h2", "spindle_host2-01:midi_to_slave_1"}});
  CHECK(plan.connectPeers.size() == 4);
  CHECK(plan.connectPeers[2] == PeerLink{"spindle_host2-01:from_slave_1", "system:playback_1"});
  carryOut(now, plan);
  vanish(now, "spindle_host2");  // the old client goes: the new one is still routed, nothing to do
  CHECK(presentClient({"h2", "spindle_host2"}, now.ports) == "spindle_host2-01");
  CHECK(planner.plan(now).empty());
  vanish(now, "spindle_host2-01");
  carryOut(now, planner.plan(now));
  CHECK(describeRoute(hostRouteStates(planner.hostRoutes(), now)[1]) == "client absent");
  appear(now, "spindle_host2-02");
  CHECK(planner.plan(now).connect == std::vector<PortLink>{{"to_h2", "spindle_host2-02:midi_to_slave_1"}});
}

TEST_CASE("a session's link restore leaves the host routes alone", "[io][connections][hosts]") {
  Routed routed;
  ConnectionPlanner& planner = routed.planner;
  PortInventory& now = routed.now;
  ConnectionPolicy policy;
  policy.restore = true;
  policy.saved = {{"out_L", "system:playback_2"}};
  planner.setPolicy(policy);
  const ConnectionPlan plan = planner.plan(now);
  CHECK(plan.disconnect == std::vector<PortLink>{{"out_L", "system:playback_1"}, {"out_R", "system:playback_2"}});
  CHECK(plan.connect == std::vector<PortLink>{{"out_L", "system:playback_2"}});
  CHECK(plan.connectPeers.empty());  // decided on this appearance already: where out_L went then
  CHECK(planner.hostRoutes().size() == 1);
}

}  // namespace host_route_planner_tests
