// Every address of the OSC table, dispatched through ControlCore against a recording
// target: the right call with the right (0-based) numbers, or the right reply.
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/OscApi.h"

namespace control_core_tests {

using namespace spindle::control;
using spindle::test::loopbackPeer;
using spindle::test::RecordingSink;
using spindle::test::RecordingTarget;

namespace {

struct Case {
  OscMessage message;
  std::string call;   // expected last target call ("" for none)
  std::string reply;  // expected first reply path ("" for none)
};

OscMessage msg(std::string path, std::vector<OscValue> args = {}) { return {std::move(path), std::move(args)}; }
OscValue I(int v) { return OscValue::i(v); }
OscValue F(double v) { return OscValue::f(v); }
OscValue S(std::string v) { return OscValue::s(std::move(v)); }

std::vector<Case> everyAddress() {
  const std::string sfz = SPINDLE_SOURCE_DIR "/tests/control/CMakeLists.txt";  // any existing file
  return {
      {msg("/spindle/help"), "", "/spindle/help"},
      {msg("/spindle/ping"), "", "/spindle/pong"},
      {msg("/spindle/reply_port", {I(0)}), "", ""},
      {msg("/spindle/load", {I(3), S(sfz)}), "load 2 " + sfz, ""},
      {msg("/spindle/unload", {I(16)}), "unload 15", ""},
      {msg("/spindle/note_on", {I(1), I(60), I(100)}), "midi 144 60 100", ""},
      {msg("/spindle/note_off", {I(2), I(60)}), "midi 129 60 0", ""},
      {msg("/spindle/cc", {I(16), I(7), I(90)}), "midi 191 7 90", ""},
      {msg("/spindle/pitchbend", {I(1), I(-8192)}), "midi 224 0 0", ""},
      {msg("/spindle/pressure", {I(3), I(90)}), "midi 210 90 0", ""},
      {msg("/spindle/program", {I(10), I(5)}), "midi 201 5 0", ""},
      {msg("/spindle/part/volume", {I(1), F(-6.5)}), "volume 0 -6.5", ""},
      {msg("/spindle/part/pan", {I(2), I(-1)}), "pan 1 -1", ""},
      {msg("/spindle/part/mute", {I(3), I(1)}), "mute 2 1", ""},
      {msg("/spindle/part/solo", {I(4), I(0)}), "solo 3 0", ""},
      {msg("/spindle/part/controls", {I(5)}), "", "/spindle/part/controls"},
      {msg("/spindle/part/scale", {I(6), S("/t/19.scl")}), "tuning 5 /t/19.scl ", ""},
      {msg("/spindle/part/keymap", {I(6), S("/t/19.kbm")}), "tuning 5 /t/19.scl /t/19.kbm", ""},
      {msg("/spindle/part/tuning/clear", {I(6)}), "tuning 5  ", ""},
      {msg("/spindle/polyphony", {I(64)}), "polyphony 64", ""},
      {msg("/spindle/preload", {I(8192)}), "preload 8192", ""},
      {msg("/spindle/quality", {I(3)}), "quality 3", ""},
      {msg("/spindle/panic"), "panic", ""},
      {msg("/spindle/mpe", {S("upper"), I(7)}), "mpe upper 7", ""},
      {msg("/spindle/status"), "", "/spindle/status"},
      {msg("/spindle/auth/get"), "", "/spindle/auth"},
      {msg("/spindle/problems"), "", "/spindle/problems"},
      {msg("/spindle/connections"), "", "/spindle/connections"},
      {msg("/spindle/connect", {S("out_3_R"), S("system:playback_2"), I(1)}), "connect out_3_R system:playback_2", ""},
      {msg("/spindle/connect", {S("midi_in"), S("a2j:Keystation [20] (capture): MIDI 1"), I(0)}),
       "disconnect midi_in a2j:Keystation [20] (capture): MIDI 1", ""},
      {msg("/spindle/reverb/on", {I(0)}), "effect reverb off", ""},
      {msg("/spindle/reverb/room-size", {F(0.5)}), "effect reverb-room-size 0.5", ""},
      {msg("/spindle/reverb/damping", {F(0.25)}), "effect reverb-damping 0.25", ""},
      {msg("/spindle/reverb/width", {I(20)}), "effect reverb-width 20", ""},
      {msg("/spindle/reverb/level", {F(0.5)}), "effect reverb-level 0.5", ""},
      {msg("/spindle/reverb"), "", "/spindle/reverb"},
      {msg("/spindle/chorus/on", {I(1)}), "effect chorus on", ""},
      {msg("/spindle/chorus/voices", {I(5)}), "effect chorus-voices 5", ""},
      {msg("/spindle/chorus/level", {F(4)}), "effect chorus-level 4", ""},
      {msg("/spindle/chorus/speed", {F(1.5)}), "effect chorus-speed 1.5", ""},
      {msg("/spindle/chorus/depth", {F(12)}), "effect chorus-depth 12", ""},
      {msg("/spindle/chorus"), "", "/spindle/chorus"},
      {msg("/spindle/master/gain", {F(-6)}), "effect master-gain -6", ""},
      {msg("/spindle/master"), "", "/spindle/master"},
      {msg("/spindle/part/reverb", {I(2), I(64)}), "midi 177 91 64", ""},
      {msg("/spindle/part/chorus", {I(2), I(10)}), "midi 177 93 10", ""},
      {msg("/spindle/part/sends", {I(2)}), "", "/spindle/part/sends"},
      {msg("/spindle/tempo", {F(96)}), "tempo 96.000000", ""},
      {msg("/spindle/tempo/get"), "", "/spindle/tempo"},
      {msg("/spindle/part/effects", {I(2)}), "", "/spindle/part/effects"},
      {msg("/spindle/part/effect/bypass", {I(3), I(1), I(1)}), "bypass 2 0 1", ""},
      {msg("/spindle/host/list"), "", "/spindle/host/list"},
      {msg("/spindle/host/status", {S("a")}), "", "/spindle/host/status"},
      {msg("/spindle/host/parts", {S("a")}), "", "/spindle/host/parts"},
      {msg("/spindle/host/load", {S("a"), I(2), S("/srv/piano.sfz")}), "host load a 1 /srv/piano.sfz", ""},
      {msg("/spindle/host/part/volume", {S("a"), I(16), F(-6)}), "host volume a 15 -6.000000", ""},
      {msg("/spindle/host/part/cc", {S("a"), I(1), I(91), I(40)}), "host cc a 0 91 40", ""},
      {msg("/spindle/library/list"), "", "/spindle/library/end"},
      {msg("/spindle/library/search", {S("piano")}), "", "/spindle/library/end"},
      {msg("/spindle/library/rescan"), "", "/spindle/library/progress"},
      {msg("/spindle/library/progress"), "", "/spindle/library/progress"},
      {msg("/spindle/subscribe", {F(10)}), "", ""},
      {msg("/spindle/unsubscribe"), "", ""},
      {msg("/spindle/session/save", {S("/tmp/spindle-control-test-" + std::to_string(::getpid()) + ".spindle")}), "",
       "/spindle/session/saved"},
      {msg("/spindle/session/load", {S("/tmp/spindle-control-test-" + std::to_string(::getpid()) + ".spindle")}),
       "bypass 2 0 1", "/spindle/session/loaded"},  // after the load: its sends, then its bypass flags
  };
}

}  // namespace

TEST_CASE("every OSC address dispatches to the target or replies", "[control]") {
  RecordingTarget target;
  target.effects[2] = {{0, "gain", 0, false}};
  RecordingSink sink;
  ControlCore core(target, sink);
  std::set<std::string> covered;
  for (const Case& c : everyAddress()) {
    INFO(describe(c.message));
    target.calls.clear();
    core.handle(loopbackPeer(), c.message);
    core.tick(ControlCore::Clock::now());
    const auto replies = sink.take();
    for (const auto& r : replies) CHECK(r.message.path != "/spindle/error");
    if (!c.call.empty()) CHECK(target.last() == c.call);
    if (c.call.empty()) CHECK(target.calls.empty());
    if (!c.reply.empty()) {
      REQUIRE_FALSE(replies.empty());
      CHECK(replies.back().message.path == c.reply);
    }
    covered.insert(c.message.path);
  }
  for (const OscEntry& e : oscApi()) CHECK(covered.count(e.path) == 1);
  std::remove(("/tmp/spindle-control-test-" + std::to_string(::getpid()) + ".spindle").c_str());
}

TEST_CASE("help lists every address of the table", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  core.handle(loopbackPeer(), msg("/spindle/help"));
  const auto replies = sink.take();
  REQUIRE(replies.size() == oscApi().size());
  for (std::size_t k = 0; k < replies.size(); ++k) {
    CHECK(replies[k].message.typespec() == "sss");
    CHECK(replies[k].message.args[0].text == oscApi()[k].path);
    CHECK(replies[k].message.args[1].text == oscApi()[k].typespec());
  }
}

TEST_CASE("a load replies progress then done to the requester, and failures as errors", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  const std::string file = SPINDLE_SOURCE_DIR "/tests/control/CMakeLists.txt";
  core.handle(loopbackPeer(41000), msg("/spindle/load", {I(2), S(file)}));
  CHECK(sink.take().empty());  // the events arrive on the next tick, on the control thread
  core.tick(ControlCore::Clock::now());
  auto replies = sink.take();
  REQUIRE(replies.size() == 2);
  CHECK(replies[0].message.path == "/spindle/load/progress");
  CHECK(replies[0].message.args[0].integer == 2);
  CHECK(replies[1].message.path == "/spindle/load/done");
  CHECK(describe(replies[1].message) == "/spindle/load/done isii 2 \"inst\" 3 0");
  CHECK(replies[1].to == loopbackPeer(41000));
  CHECK(core.dirty());

  const std::string broken = "/tmp/spindle-broken-" + std::to_string(::getpid()) + ".sfz";
  std::ofstream(broken) << "<region>";
  core.handle(loopbackPeer(41000), msg("/spindle/load", {I(1), S(broken)}));
  core.tick(ControlCore::Clock::now());
  replies = sink.take();
  REQUIRE(replies.size() == 2);
  CHECK(replies[1].message.path == "/spindle/error");
  CHECK(replies[1].message.args[0].text == "/spindle/load");
  CHECK(replies[1].message.args[1].text.find("part 1: cannot parse") == 0);
  std::remove(broken.c_str());
}

TEST_CASE("status carries the target's numbers as name, value pairs", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  core.handle(loopbackPeer(), msg("/spindle/status"));
  const auto replies = sink.take();
  REQUIRE(replies.size() == 1);
  const OscMessage& m = replies[0].message;
  REQUIRE(m.args.size() % 2 == 0);
  auto value = [&m](const std::string& name) {
    for (std::size_t k = 0; k + 1 < m.args.size(); k += 2)
      if (m.args[k].text == name) return m.args[k + 1].number();
    FAIL("no " << name);
    return 0.0;
  };
  CHECK(value("voices") == 7);
  CHECK(value("xruns") == 2);
  CHECK(value("latency_last_ms") == Approx(5.5));
  CHECK(value("latency_min_ms") == -1);
  CHECK(value("memory_bytes") == 1234567);
  CHECK(value("dropped") == 0);
  CHECK(value("cache_hit_rate") == -1);  // the target measures no block cache
  CHECK(value("decoded_mb_s") == -1);
  CHECK(value("cache_bytes") == 0);
  CHECK(value("net_round_trip_frames") == 768);
  CHECK(value("net_round_trip_periods") == 3);
}

TEST_CASE("reply_port redirects the replies of the sender's host", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  core.handle(loopbackPeer(50001), msg("/spindle/reply_port", {I(50999)}));
  core.handle(loopbackPeer(50002), msg("/spindle/ping"));
  auto replies = sink.take();
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].to == loopbackPeer(50999));
  core.handle(loopbackPeer(50003), msg("/spindle/reply_port", {I(0)}));
  core.handle(loopbackPeer(50004), msg("/spindle/ping"));
  replies = sink.take();
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].to == loopbackPeer(50004));
}

TEST_CASE("subscriptions push status at their rate until unsubscribed", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  core.handle(loopbackPeer(42000), msg("/spindle/subscribe", {F(10)}));
  auto now = ControlCore::Clock::now();
  int pushed = 0;
  for (int ms = 0; ms < 2000; ms += 5) {  // 2 s of simulated time at 10 Hz
    core.tick(now + std::chrono::milliseconds(ms));
    for (const auto& r : sink.take()) pushed += r.message.path == "/spindle/status" ? 1 : 0;
  }
  CHECK(pushed >= 19);
  CHECK(pushed <= 21);
  core.handle(loopbackPeer(42000), msg("/spindle/unsubscribe"));
  core.tick(now + std::chrono::seconds(10));
  CHECK(sink.take().empty());
}

TEST_CASE("/spindle/part/controls replies the part's labelled controllers with their values", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  target.controls[2] = {{7, "Master Vol", 100.0f / 127.0f}, {226, "Room mic", 0.25f}};
  core.handle(loopbackPeer(), msg("/spindle/part/controls", {I(3)}));
  auto replies = sink.take();
  REQUIRE(replies.size() == 1);
  const OscMessage& m = replies[0].message;
  CHECK(m.path == "/spindle/part/controls");
  CHECK(m.typespec() == "iisfisf");
  REQUIRE(m.args.size() == 7);
  CHECK(m.args[0].number() == 3);
  CHECK(m.args[1].number() == 7);
  CHECK(m.args[2].text == "Master Vol");
  CHECK(m.args[3].number() == Approx(100.0 / 127.0));
  CHECK(m.args[4].number() == 226);
  CHECK(m.args[5].text == "Room mic");
  CHECK(m.args[6].number() == Approx(0.25));
  // A part without labelled controllers: only the part.
  core.handle(loopbackPeer(), msg("/spindle/part/controls", {I(1)}));
  replies = sink.take();
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].message.typespec() == "i");
  // Out of range: an error, no reply of the address.
  core.handle(loopbackPeer(), msg("/spindle/part/controls", {I(17)}));
  replies = sink.take();
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].message.path == "/spindle/error");
}

TEST_CASE("/spindle/connections replies the state, each link, each MIDI source and each input", "[control][connections]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  target.connectionState = {"jack", "", {{"out_L", "system:playback_1"}, {"midi_in", "kb:capture"}},
                            {{"kb:capture", true}, {"pads:capture", false}}, {{"midi_in", 12, 2}, {"osc", 0, 0}}, 7, {}};
  core.handle(loopbackPeer(), msg("/spindle/connections"));
  const auto replies = sink.take();
  REQUIRE(replies.size() == 7);
  CHECK(replies[0].message.path == "/spindle/connections");
  CHECK(replies[0].message.typespec() == "ssiii");
  CHECK(replies[0].message.args[4].number() == 2);
  CHECK(replies[0].message.args[0].text == "jack");
  CHECK(replies[0].message.args[2].number() == 2);
  CHECK(replies[0].message.args[3].number() == 2);
  CHECK(replies[1].message.path == "/spindle/connection");
  CHECK(replies[1].message.args[0].text == "out_L");
  CHECK(replies[1].message.args[1].text == "system:playback_1");
  CHECK(replies[2].message.args[1].text == "kb:capture");
  CHECK(replies[3].message.path == "/spindle/midi/source");
  CHECK(replies[3].message.args[0].text == "kb:capture");
  CHECK(replies[3].message.args[1].number() == 1);
  CHECK(replies[4].message.args[0].text == "pads:capture");
  CHECK(replies[4].message.args[1].number() == 0);
  CHECK(replies[5].message.path == "/spindle/midi/input");
  CHECK(replies[5].message.typespec() == "shi");
  CHECK(replies[5].message.args[0].text == "midi_in");
  CHECK(replies[5].message.args[1].number() == 12);
  CHECK(replies[5].message.args[2].number() == 2);
  CHECK(replies[6].message.args[0].text == "osc");
  CHECK(replies[6].message.args[2].number() == 0);
}

TEST_CASE("a subscriber hears of every change of the connections once", "[control][connections]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  core.handle(loopbackPeer(42000), msg("/spindle/subscribe", {F(0.1)}));
  const auto now = ControlCore::Clock::now();
  const auto pushes = [&](int ms) {
    core.tick(now + std::chrono::milliseconds(ms));
    int n = 0;
    for (const auto& r : sink.take()) n += r.message.path == "/spindle/connections" ? 1 : 0;
    return n;
  };
  target.connectionState = {"jack", "no MIDI input connected", {{"out_L", "system:playback_1"}}, {}, {}, 1, {}};
  CHECK(pushes(1) == 1);
  CHECK(pushes(2) == 0);  // nothing changed
  target.connectionState.midiSources.push_back({"kb:capture", true});
  target.connectionState.hint.clear();
  target.connectionState.serial = 2;
  CHECK(pushes(3) == 1);
}

TEST_CASE("/spindle/connect takes only Spindle's own ports", "[control][connections]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  for (const char* port : {"system:playback_1", "out_17_L", "out_0_R", "out_", "in_L", "out_1_X", ""}) {
    INFO(port);
    core.handle(loopbackPeer(), msg("/spindle/connect", {S(port), S("system:playback_1"), I(1)}));
    const auto replies = sink.take();
    REQUIRE(replies.size() == 1);
    CHECK(replies[0].message.path == "/spindle/error");
  }
  CHECK(target.calls.empty());
}

TEST_CASE("a session with [connections] restores exactly its links; one without leaves them", "[control][connections]") {
  const auto file = std::filesystem::temp_directory_path() / ("spindle-links-" + std::to_string(::getpid()) + ".spindle");
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  std::ofstream(file) << "[settings]\npolyphony = 64\n[connections]\nout_L = system:playback_2\n"
                         "out_R = system:playback_1\n";
  std::string error;
  REQUIRE(core.loadSession(file.string(), loopbackPeer(), nullptr, error));
  CHECK(std::count(target.calls.begin(), target.calls.end(),
                   "restore out_L=system:playback_2 out_R=system:playback_1") == 1);
  target.calls.clear();
  std::ofstream(file) << "[settings]\npolyphony = 64\n";
  REQUIRE(core.loadSession(file.string(), loopbackPeer(), nullptr, error));
  CHECK(std::none_of(target.calls.begin(), target.calls.end(),
                     [](const std::string& call) { return call.rfind("restore", 0) == 0; }));
  std::filesystem::remove(file);
}

TEST_CASE("the OSC reference (docs/osc.md) holds the table", "[control]") {
  std::ifstream in(SPINDLE_SOURCE_DIR "/docs/osc.md");
  REQUIRE(in);
  const std::string reference((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO("regenerate with: build/.../tests/control/spindle-osc-table > docs/osc.md's \"Addresses and replies\"");
  CHECK(reference.find("## Addresses and replies") != std::string::npos);
  CHECK(reference.find(markdownTable()) != std::string::npos);
}

TEST_CASE("a bad tuning file over OSC replies an error naming its file and line", "[control]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  core.handle(loopbackPeer(), msg("/spindle/part/scale", {I(2), S("/t/bad.scl")}));
  const auto replies = sink.take();
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].message.path == "/spindle/error");
  REQUIRE(replies[0].message.args.size() == 2);
  CHECK(replies[0].message.args[0].text == "/spindle/part/scale");
  CHECK(replies[0].message.args[1].text == "/t/bad.scl:3: bad pitch");
  CHECK(target.calls.empty());
  CHECK(target.state.parts[1].scale.empty());
}

}  // namespace control_core_tests
