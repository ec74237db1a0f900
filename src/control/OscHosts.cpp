#include "control/OscHosts.h"

#include "control/ControlCore.h"

namespace spindle::control {

namespace {

// The master's hosts, or an error reply when it drives none.
HostControl* hosts(OscCall& c) {
  HostControl* control = c.core.target().hostControl();
  if (!control) c.core.error("this Spindle drives no hosts (--host NAME=ADDR[:PORT][@JACKCLIENT])");
  return control;
}

// The view of host `name`, or an error reply naming it.
std::optional<HostView> hostView(OscCall& c, const std::string& name) {
  HostControl* control = hosts(c);
  if (!control) return std::nullopt;
  for (HostView& view : control->hosts())
    if (view.name == name) return std::move(view);
  c.core.error("no host named '" + name + "'");
  return std::nullopt;
}

// The route of host `name` (--host NAME=ADDR@CLIENT), or none when it is not routed.
HostRouteInfo route(OscCall& c, const std::string& name) {
  for (HostRouteInfo& info : c.core.target().connections().hostRoutes)
    if (info.name == name) return std::move(info);
  return {};
}

// 1: MIDI linked, 2: audio linked (3: both); 0 when the client is absent or not routed.
int routed(const HostRouteInfo& info) { return (info.midi ? 1 : 0) + (info.audio ? 2 : 0); }

void listHosts(OscCall& c) {
  HostControl* control = hosts(c);
  if (!control) return;
  OscMessage m{"/spindle/host/list", {}};
  for (const HostView& view : control->hosts()) {
    for (const std::string& text : {view.name, view.state, view.address}) m.args.push_back(OscValue::s(text));
    m.args.push_back(OscValue::i(view.port));
    const HostRouteInfo info = route(c, view.name);
    m.args.push_back(OscValue::s(info.present.empty() ? view.jackClient : info.present));
    m.args.push_back(OscValue::i(routed(info)));
  }
  c.core.reply(m);
}

void status(OscCall& c) {
  const auto view = hostView(c, c.text(0));
  if (!view) return;
  OscMessage m{"/spindle/host/status", {OscValue::s(view->name), OscValue::s(view->state),
                                        OscValue::f(view->statusAgeSeconds), OscValue::f(view->roundTripMs)}};
  const auto pair = [&m](const std::string& name, double value) {
    m.args.push_back(OscValue::s(name));
    m.args.push_back(OscValue::f(value));
  };
  for (const auto& [name, value] : view->status) pair(name, value);
  pair("audio_round_trip_ms", view->audioRoundTripMs);
  pair("signed", view->signedControl ? 1.0 : 0.0);
  pair("refused_replies", static_cast<double>(view->refusedReplies));
  pair("routed", routed(route(c, view->name)));
  c.core.reply(m);
}

void parts(OscCall& c) {
  const auto view = hostView(c, c.text(0));
  if (!view) return;
  OscMessage m{"/spindle/host/parts", {OscValue::s(view->name)}};
  for (const HostPartView& part : view->parts) {
    m.args.push_back(OscValue::i(part.part + 1));
    m.args.push_back(OscValue::s(part.asked.library));
    m.args.push_back(OscValue::f(part.asked.volumeDb.value_or(0.0f)));
    m.args.push_back(OscValue::s(part.instrument));
    m.args.push_back(OscValue::s(part.error));
  }
  c.core.reply(m);
}

void result(OscCall& c, bool ok, const std::string& error) {
  if (!ok) c.core.error(error);
  else c.core.markDirty();
}

void load(OscCall& c) {
  std::string error;
  if (HostControl* control = hosts(c)) result(c, control->load(c.text(0), c.integer(1) - 1, c.text(2), error), error);
}

void volume(OscCall& c) {
  std::string error;
  if (HostControl* control = hosts(c))
    result(c, control->setVolume(c.text(0), c.integer(1) - 1, c.real(2), error), error);
}

void controller(OscCall& c) {
  std::string error;
  if (HostControl* control = hosts(c))
    result(c, control->setControl(c.text(0), c.integer(1) - 1, c.integer(2), c.integer(3), error), error);
}

const ArgSpec kHostArg{'s', "host", 0, 0};
const ArgSpec kPartArg{'i', "part", 1, 16};

}  // namespace

std::vector<OscEntry> hostsApi() {
  return {
      {"/spindle/host/list", {}, "replies one /spindle/host/list message: every host this Spindle drives (--host, a session's [host] sections)", listHosts},
      {"/spindle/host/status", {kHostArg},
       "replies /spindle/host/status: the host's state and its last /spindle/status", status},
      {"/spindle/host/parts", {kHostArg},
       "replies /spindle/host/parts: what was asked of the host's parts and what the host answered", parts},
      {"/spindle/host/load", {kHostArg, kPartArg, {'s', "path", 0, 0}},
       "loads an instrument (a path on that host) into one of the host's parts; remembered, and loaded again when "
       "the host comes back after being lost",
       load},
      {"/spindle/host/part/volume", {kHostArg, kPartArg, {'f', "dB", -144, 12}},
       "a remote part's volume in dB; remembered like the load", volume},
      {"/spindle/host/part/cc", {kHostArg, kPartArg, {'i', "controller", 0, 127}, {'i', "value", 0, 127}},
       "a controller of a remote part (on its channel, e.g. a label_cc control); remembered like the load",
       controller},
  };
}

std::vector<OscReplyDoc> hostsReplies() {
  return {
      {"/spindle/host/list", "(sssisi)...",
       "for each host: its name, state (connecting; connected; lost: no status for 3 s; returned: back, its parts "
       "being restored), address, OSC port, its NetJACK2 client on this JACK server (the one present, e.g. "
       "spindle_host2-01, else the one given; empty: not routed), routed (1: MIDI linked from to_NAME, 2: its "
       "audio linked back, 3: both; 0: client absent or not routed)"},
      {"/spindle/host/status", "ssff(sf)...",
       "host, state, seconds since its last status (-1: none yet), the OSC round trip to it in ms (-1: not "
       "measured), then the name, value pairs of its last /spindle/status (a NetJACK2 slave's include "
       "net_round_trip_frames, the audio round trip through it), then audio_round_trip_ms (those frames at this "
       "Spindle's sample rate; -1: not reported), signed (1: control to it is signed), refused_replies (its "
       "replies refused: unsigned, bad MAC, replayed or stale) and routed (as in /spindle/host/list)"},
      {"/spindle/host/parts", "s(isfss)...",
       "host, then for each part asked of it or loaded: part, library asked (a path on that host), volume asked "
       "(dB), the instrument name its load replied (empty: not loaded), its last error"},
  };
}

}  // namespace spindle::control
