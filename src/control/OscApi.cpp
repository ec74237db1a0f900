#include "control/OscApi.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "control/ControlCore.h"
#include "control/OscEffects.h"
#include "control/OscHosts.h"
#include "control/OscLibrary.h"
#include "control/OscTempo.h"
#include "control/OscPartEffects.h"
#include "control/ProblemLog.h"
#include "core/MidiEvent.h"

namespace spindle::control {

namespace {

constexpr double kPart = 16.0;  // parts and channels: 1..16 on the wire
constexpr int kMinPreload = 512, kMaxPreload = 1 << 20;
static_assert(ProblemLog::kKept == 64, "the /spindle/problems documentation says the last 64");

uint8_t byte(int v) { return static_cast<uint8_t>(v); }
uint8_t status(uint8_t type, const OscCall& c) { return static_cast<uint8_t>(type | (c.integer(0) - 1)); }

void midi(OscCall& c, uint8_t s, int d1, int d2) { c.core.commandResult(c.core.target().sendMidi(s, byte(d1), byte(d2)), false); }

void help(OscCall& c) {
  for (const OscEntry& e : oscApi())
    c.core.reply({"/spindle/help", {OscValue::s(e.path), OscValue::s(e.typespec()), OscValue::s(e.signature() + ": " + e.doc)}});
}
void ping(OscCall& c) { c.core.reply({"/spindle/pong", {}}); }
void replyPort(OscCall& c) { c.core.setReplyPort(c.integer(0)); }
void load(OscCall& c) { c.core.beginLoad(c.integer(0) - 1, c.text(1)); }
void unload(OscCall& c) { c.core.commandResult(c.core.target().unload(c.integer(0) - 1), true); }
void noteOn(OscCall& c) { midi(c, status(midi::kNoteOn, c), c.integer(1), c.integer(2)); }
void noteOff(OscCall& c) { midi(c, status(midi::kNoteOff, c), c.integer(1), 0); }
void cc(OscCall& c) { midi(c, status(midi::kControlChange, c), c.integer(1), c.integer(2)); }
void pitchbend(OscCall& c) {
  const int v = c.integer(1) + 8192;
  midi(c, status(midi::kPitchBend, c), v & 0x7F, v >> 7);
}
void pressure(OscCall& c) { midi(c, status(midi::kChannelPressure, c), c.integer(1), 0); }
void program(OscCall& c) { midi(c, status(midi::kProgramChange, c), c.integer(1), 0); }
void volume(OscCall& c) { c.core.commandResult(c.core.target().setPartVolume(c.integer(0) - 1, c.real(1)), true); }
void pan(OscCall& c) { c.core.commandResult(c.core.target().setPartPan(c.integer(0) - 1, c.real(1)), true); }
void mute(OscCall& c) { c.core.commandResult(c.core.target().setPartMute(c.integer(0) - 1, c.integer(1) != 0), true); }
void solo(OscCall& c) { c.core.commandResult(c.core.target().setPartSolo(c.integer(0) - 1, c.integer(1) != 0), true); }
void setTuning(OscCall& c, const std::string& scale, const std::string& keymap) {
  std::string error;
  const bool ok = c.core.target().setPartTuning(c.integer(0) - 1, scale, keymap, error);
  if (!ok && !error.empty()) return c.core.error(error);
  c.core.commandResult(ok, true);
}
// A scale keeps the part's keyboard map, a keyboard map its scale.
PartSettings partNow(OscCall& c) { return c.core.target().sessionState().parts[static_cast<std::size_t>(c.integer(0) - 1)]; }
void scale(OscCall& c) { setTuning(c, c.text(1), partNow(c).keymap); }
void keymap(OscCall& c) { setTuning(c, partNow(c).scale, c.text(1)); }
void tuningClear(OscCall& c) { setTuning(c, {}, {}); }
void polyphony(OscCall& c) {
  if (c.integer(0) > c.core.target().maxPolyphony()) {
    c.core.error("polyphony must be at most " + std::to_string(c.core.target().maxPolyphony()) + " (--polyphony)");
    return;
  }
  c.core.commandResult(c.core.target().setPolyphony(c.integer(0)), true);
}
// /spindle/mpe ZONE MEMBERS: "lower" (master channel 1) or "upper" (master 16).
void mpeZone(OscCall& c) {
  const std::string zone = c.text(0);
  if (zone != "lower" && zone != "upper") return c.core.error("the MPE zone is lower or upper, not '" + zone + "'");
  c.core.commandResult(c.core.target().setMpeZone(zone == "upper", c.integer(1)), true);
}
void preload(OscCall& c) { c.core.commandResult(c.core.target().setPreloadFrames(c.integer(0)), true); }
void quality(OscCall& c) { c.core.commandResult(c.core.target().setQuality(c.integer(0)), true); }
void panic(OscCall& c) { c.core.commandResult(c.core.target().panic(), false); }
void statusQuery(OscCall& c) { c.core.reply(c.core.statusMessage()); }
void authQuery(OscCall& c) { c.core.reply(c.core.authMessage()); }
// One message: the part, then controller, label, value (0..1) per labelled controller.
void partControls(OscCall& c) {
  OscMessage m{"/spindle/part/controls", {OscValue::i(c.integer(0))}};
  for (const PartControl& control : c.core.target().partControls(c.integer(0) - 1)) {
    m.args.push_back(OscValue::i(control.cc));
    m.args.push_back(OscValue::s(control.label));
    m.args.push_back(OscValue::f(control.value));
  }
  c.core.reply(m);
}
void problemsQuery(OscCall& c) { c.core.replyProblems(); }
void connectionsQuery(OscCall& c) {
  for (const OscMessage& m : c.core.connectionMessages()) c.core.reply(m);
}
// Spindle's own ports: out_L, out_R, midi_in, out_<1..16>_L/R.
bool isOwnPort(const std::string& port) {
  if (port == "out_L" || port == "out_R" || port == "midi_in") return true;
  if (port.size() < 7 || port.rfind("out_", 0) != 0 || (port.back() != 'L' && port.back() != 'R')) return false;
  const std::string number = port.substr(4, port.size() - 6);
  if (port[port.size() - 2] != '_' || number.empty() || number.size() > 2 ||
      number.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const int part = std::stoi(number);
  return part >= 1 && part <= kParts;
}
void connect(OscCall& c) {
  if (!isOwnPort(c.text(0))) {
    c.core.error("'" + c.text(0) + "' is not one of Spindle's ports (out_L, out_R, midi_in, out_1_L .. out_16_R)");
    return;
  }
  if (c.text(1).empty()) {
    c.core.error("no port to connect " + c.text(0) + " to");
    return;
  }
  c.core.target().setConnection({c.text(0), c.text(1)}, c.integer(2) != 0);
  c.core.markDirty();
}
void subscribe(OscCall& c) { c.core.subscribe(static_cast<double>(c.real(0))); }
void unsubscribe(OscCall& c) { c.core.unsubscribe(); }
void sessionSave(OscCall& c) {
  std::string error;
  if (c.core.saveSession(c.text(0), error)) c.core.reply({"/spindle/session/saved", {OscValue::s(c.text(0))}});
  else c.core.error(error);
}
void sessionLoad(OscCall& c) {
  std::string error;
  ControlCore& core = c.core;
  const Peer requester = core.sender();
  const std::string file = c.text(0);
  auto done = [&core, requester, file](bool ok, const std::string& message) {
    if (!requester.valid()) return;
    if (ok) core.replyTo(requester, {"/spindle/session/loaded", {OscValue::s(file)}});
    else core.replyTo(requester, {"/spindle/error", {OscValue::s("/spindle/session/load"), OscValue::s(message)}});
  };
  if (!core.loadSession(file, requester, done, error)) core.error(error);
}

const ArgSpec kPartArg{'i', "part", 1, kPart};
const ArgSpec kChannelArg{'i', "channel", 1, kPart};
const ArgSpec kKeyArg{'i', "key", 0, 127};
const ArgSpec kFlagArg{'i', "on", 0, 1};

// What plays: instruments, notes and controllers.
std::vector<OscEntry> playingApi() {
  return {
      {"/spindle/help", {}, "lists every address: one /spindle/help sss (path, types, description) each", help},
      {"/spindle/ping", {}, "replies /spindle/pong", ping},
      {"/spindle/reply_port", {{'i', "port", 0, 65535}},
       "replies and pushed status for messages from this host go to this UDP port (0: back to the sender's own port)",
       replyPort},
      {"/spindle/load", {kPartArg, {'s', "path", 0, 0}},
       "loads an instrument (SFZ, SoundFont, DecentSampler, Hydrogen kit) into a part in the background; replies /spindle/load/progress, then /spindle/load/done or /spindle/error",
       load},
      {"/spindle/unload", {kPartArg}, "removes the part's instrument", unload},
      {"/spindle/note_on", {kChannelArg, kKeyArg, {'i', "velocity", 0, 127}}, "note on (velocity 0: note off)", noteOn},
      {"/spindle/note_off", {kChannelArg, kKeyArg}, "note off", noteOff},
      {"/spindle/cc", {kChannelArg, {'i', "controller", 0, 127}, {'i', "value", 0, 127}}, "control change", cc},
      {"/spindle/pitchbend", {kChannelArg, {'i', "value", -8192, 8191}}, "pitch bend (0: centre)", pitchbend},
      {"/spindle/pressure", {kChannelArg, {'i', "value", 0, 127}},
       "channel pressure (aftertouch); on an MPE member channel, its note's own", pressure},
      {"/spindle/program", {kChannelArg, {'i', "program", 0, 127}}, "program change: selects an instrument slot", program},
  };
}

// Each part's mix, tuning and controls.
std::vector<OscEntry> partApi() {
  return {
      {"/spindle/part/volume", {kPartArg, {'f', "dB", -144, 12}}, "part volume in dB", volume},
      {"/spindle/part/pan", {kPartArg, {'f', "pan", -1, 1}}, "part pan, -1 left .. 1 right", pan},
      {"/spindle/part/mute", {kPartArg, kFlagArg}, "mutes (1) or unmutes (0) a part", mute},
      {"/spindle/part/solo", {kPartArg, kFlagArg}, "solos (1) or unsolos (0) a part", solo},
      {"/spindle/part/scale", {kPartArg, {'s', "path", 0, 0}},
       "plays the part in a Scala scale (.scl), with its keyboard map; a bad file replies /spindle/error naming its "
       "file and line and changes nothing",
       scale},
      {"/spindle/part/keymap", {kPartArg, {'s', "path", 0, 0}},
       "maps the part's keys with a Scala keyboard map (.kbm), over its scale (12-TET without one); a bad file "
       "replies /spindle/error naming its file and line",
       keymap},
      {"/spindle/part/tuning/clear", {kPartArg}, "no scale and no keyboard map: the part plays in 12-TET again",
       tuningClear},
      {"/spindle/part/controls", {kPartArg},
       "replies one /spindle/part/controls message: the instrument's labelled controllers (label_cc) and their "
       "values; /spindle/cc sets them",
       partControls},
  };
}

// The engine's settings, and the panic.
std::vector<OscEntry> engineApi() {
  return {
      {"/spindle/polyphony", {{'i', "voices", 1, 4096}}, "voice limit (at most the --polyphony Spindle started with)",
       polyphony},
      {"/spindle/preload", {{'i', "frames", kMinPreload, kMaxPreload}},
       "frames of every sample kept in RAM, for instruments loaded from now on", preload},
      {"/spindle/quality", {{'i', "quality", 0, 3}}, "interpolation: 0 linear, 1 hermite, 2 sinc, 3 high sinc", quality},
      {"/spindle/panic", {}, "all sound off on every part at once", panic},
      {"/spindle/mpe", {{'s', "zone", 0, 0}, {'i', "members", 0, 15}},
       "an MPE zone: lower (master channel 1, members 2..) or upper (master 16, members ..15) with that many member "
       "channels, 0 off; a zone it overlaps shrinks; /spindle/status shows mpe_lower and mpe_upper in effect",
       mpeZone},
  };
}

// What Spindle reports and keeps: status, problems, connections, sessions.
std::vector<OscEntry> stateApi() {
  return {
      {"/spindle/status", {}, "replies one /spindle/status message: name, value pairs (see below)", statusQuery},
      {"/spindle/auth/get", {}, "replies /spindle/auth: the OSC security mode and the packets refused per reason",
       authQuery},
      {"/spindle/problems", {},
       "replies /spindle/problems (problems so far, how many follow), then the last 64 as /spindle/problem, oldest first",
       problemsQuery},
      {"/spindle/connections", {},
       "replies /spindle/connections, then one /spindle/connection per link, one /spindle/midi/source per "
       "hardware MIDI source and one /spindle/midi/input per MIDI input of Spindle's",
       connectionsQuery},
      {"/spindle/connect", {{'s', "port", 0, 0}, {'s', "peer", 0, 0}, kFlagArg},
       "connects (1) or disconnects (0) one of Spindle's ports (out_L, midi_in ..) and another port (full name)",
       connect},
      {"/spindle/subscribe", {{'f', "rate", 0.1, kMaxSubscribeHz}},
       "pushes /spindle/status to the reply address this many times a second (at most 30), and each new problem "
       "as /spindle/problem (within 0.2 s), and the connections on every change (as /spindle/connections replies)",
       subscribe},
      {"/spindle/unsubscribe", {}, "stops the pushed status and problems", unsubscribe},
      {"/spindle/session/save", {{'s', "file", 0, 0}},
       "writes instruments per part and settings to a text file; replies /spindle/session/saved", sessionSave},
      {"/spindle/session/load", {{'s', "file", 0, 0}},
       "loads a session file; replies /spindle/session/loaded once every instrument has loaded", sessionLoad},
  };
}

std::vector<OscEntry> makeApi() {
  std::vector<OscEntry> api = playingApi();
  for (OscEntry& entry : partApi()) api.push_back(std::move(entry));
  for (OscEntry& entry : engineApi()) api.push_back(std::move(entry));
  for (OscEntry& entry : stateApi()) api.push_back(std::move(entry));
  for (OscEntry& entry : effectsApi()) api.push_back(std::move(entry));
  for (OscEntry& entry : tempoApi()) api.push_back(std::move(entry));
  for (OscEntry& entry : partEffectsApi()) api.push_back(std::move(entry));
  for (OscEntry& entry : hostsApi()) api.push_back(std::move(entry));
  for (OscEntry& entry : libraryApi()) api.push_back(std::move(entry));
  return api;
}

std::string formatNumber(double v) {
  std::ostringstream out;
  out << std::setprecision(12) << v;
  return out.str();
}

std::string code(const std::string& text) { return text.empty() ? "-" : "`" + text + "`"; }

std::optional<std::string> checkArg(const ArgSpec& spec, const OscValue& v, std::size_t k) {
  const std::string where = "argument " + std::to_string(k + 1) + " (" + spec.name + ")";
  if (spec.type == 's') {
    if (!v.isString()) return where + " must be a string (s), got '" + std::string(1, v.type) + "'";
    if (v.text.empty()) return where + " must not be empty";
    return std::nullopt;
  }
  if (spec.type == 'i' && !v.isInteger())
    return where + " must be an integer (i), got '" + std::string(1, v.type) + "'";
  if (!v.isNumber()) return where + " must be a number (f or i), got '" + std::string(1, v.type) + "'";
  const double x = v.number();
  if (!std::isfinite(x) || x < spec.low || x > spec.high)
    return where + " must be " + formatNumber(spec.low) + ".." + formatNumber(spec.high) + ", got " + formatNumber(x);
  return std::nullopt;
}

}  // namespace

std::string OscEntry::typespec() const {
  std::string types;
  for (const ArgSpec& a : args) types += a.type;
  return types;
}

std::string OscEntry::signature() const {
  std::string out;
  for (const ArgSpec& a : args) {
    if (!out.empty()) out += ", ";
    out += a.name;
    if (a.type != 's') out += " " + formatNumber(a.low) + ".." + formatNumber(a.high);
  }
  return out.empty() ? "no arguments" : out;
}

const std::vector<OscEntry>& oscApi() {
  static const std::vector<OscEntry> api = makeApi();
  return api;
}

namespace {

// /spindle/status's name, value pairs.
constexpr const char* kStatusFields =
    "name, value pairs: voices, peak_voices, streams, xruns, xruns_detected, overruns, underruns, latency_last_ms, "
    "latency_min_ms, latency_max_ms (-1: no note yet), load_percent, ahead_min_ms (audio the stream closest to "
    "running dry holds; -1: none open), memory_bytes (sample data in RAM: preloads and samples held whole), "
    "bytes_per_sample (of that, per sample), pinned_blocks (decoded blocks the streams hold), cache_budget_bytes "
    "(the block cache's budget, pinned blocks included), cache_hit_rate (decoded blocks found in the cache 0..1), "
    "decoded_mb_s (frames decoded per second, MB of 16-bit stereo), cache_bytes (decoded blocks held), dropped, "
    "sample_rate, auth_unsigned, auth_bad_mac, auth_replayed, auth_stale, auth_misaddressed, auth_too_many_senders "
    "(packets refused, as in /spindle/auth), "
    "net_round_trip_frames, net_round_trip_periods (on a NetJACK2 slave: the master's MIDI out to its audio in "
    "through this host; 0: not a slave), mpe_lower, mpe_upper (the MPE zones' member channels in effect, 0: off), "
    "problems (problems so far); -1: not measured";

// The replies and pushed messages, but the effects' (OscEffects.h).
std::vector<OscReplyDoc> coreReplies() {
  return {
      {"/spindle/error", "ss", "the address that failed (\"\" for an unreadable packet) and the reason"},
      {"/spindle/pong", "", "answer to /spindle/ping"},
      {"/spindle/help", "sss", "one per address: path, types, description"},
      {"/spindle/load/progress", "if", "part, fraction loaded 0..1"},
      {"/spindle/load/done", "isii",
       "part, instrument name, regions, sample files not loaded (missing, unreadable or over the memory budget)"},
      {"/spindle/status", "s?...", kStatusFields},
      {"/spindle/auth", "shhhhhhh",
       "mode (open: no secret; signed_remote: other hosts must sign; signed_all: every peer must sign), signed "
       "packets accepted, then packets refused: unsigned, bad_mac (wrong secret, altered or malformed), replayed "
       "(counter not above the sender's last), stale (counter over 30 s from this host's clock), misaddressed "
       "(signed for another receiver), too_many_senders (1,024 senders signed in the last 30 s)"},
      {"/spindle/signed", "sshbb",
       "a signed packet: sender, receiver, counter, the OSC packet, its HMAC-SHA256 (Security, above); replies to a "
       "signed request come in one, from the receiver the request named to its sender"},
      {"/spindle/problem", "hsss",
       "a problem met while running: serial (1, 2, ...), kind (disk: a stream could not read its file while "
       "playing; load: a load left the sample out, over the memory budget or unreadable; server: the audio "
       "server went away, Spindle reconnects by itself), sample file (empty for server), message"},
      {"/spindle/part/controls", "i(isf)...",
       "part, then controller (0..511), label, current value 0..1 (MIDI value / 127) for each labelled controller, "
       "in the instrument's order; only the part when it has none"},
      {"/spindle/problems", "hi", "problems so far, how many /spindle/problem follow (the last 64 at most)"},
      {"/spindle/connections", "ssiii",
       "sound server (\"\" when none), hint (\"\" when MIDI and audio are connected, else what is missing), "
       "how many links, hardware MIDI sources and MIDI inputs follow; pushed to subscribers when a link or source "
       "changes"},
      {"/spindle/connection", "ss", "one link: Spindle's port (out_L, midi_in ..), the other port's full name"},
      {"/spindle/midi/source", "si", "a hardware MIDI source: its port name, 1 when it feeds midi_in"},
      {"/spindle/midi/input", "shi",
       "one of Spindle's MIDI inputs (midi_in: the server's port; device; alsa_seq; osc or keyboard): channel "
       "and MIDI clock messages so far, the channel of the last channel message (1..16; 0: none yet)"},
      {"/spindle/session/saved", "s", "the file written"},
      {"/spindle/session/loaded", "s", "the file loaded, once every instrument has loaded"},
  };
}

}  // namespace

const std::vector<OscReplyDoc>& oscReplies() {
  static const std::vector<OscReplyDoc> replies = [] {
    std::vector<OscReplyDoc> all = coreReplies();
    for (const OscReplyDoc& reply : effectsReplies()) all.push_back(reply);
    for (const OscReplyDoc& reply : tempoReplies()) all.push_back(reply);
    for (const OscReplyDoc& reply : partEffectsReplies()) all.push_back(reply);
    for (const OscReplyDoc& reply : hostsReplies()) all.push_back(reply);
    for (const OscReplyDoc& reply : libraryReplies()) all.push_back(reply);
    return all;
  }();
  return replies;
}

const OscEntry* findEntry(const std::string& path) {
  for (const OscEntry& e : oscApi())
    if (path == e.path) return &e;
  return nullptr;
}

std::optional<std::string> check(const OscEntry& entry, const OscMessage& message) {
  if (message.args.size() != entry.args.size())
    return "expects " + std::to_string(entry.args.size()) + " argument(s) '" + entry.typespec() + "', got " +
           std::to_string(message.args.size()) + " '" + message.typespec() + "'";
  for (std::size_t k = 0; k < entry.args.size(); ++k)
    if (auto why = checkArg(entry.args[k], message.args[k], k)) return why;
  return std::nullopt;
}

std::string markdownTable() {
  std::string out = "| Address | Types | Arguments | What it does |\n|---|---|---|---|\n";
  for (const OscEntry& e : oscApi())
    out += std::string("| `") + e.path + "` | " + code(e.typespec()) + " | " + e.signature() + " | " + e.doc + " |\n";
  out += "\nReplies (to the sender's address, or its host's `/spindle/reply_port`):\n\n"
         "| Address | Types | Contents |\n|---|---|---|\n";
  for (const OscReplyDoc& r : oscReplies())
    out += std::string("| `") + r.path + "` | " + code(r.typespec) + " | " + r.doc + " |\n";
  return out;
}

}  // namespace spindle::control
