// A part's instrument effects through the control side: /spindle/part/effects lists
// them, /spindle/part/effect/bypass sets a flag (an error reply names the message and
// the reason for a part or effect that is not there), and the session file keeps the
// part's sends and bypass flags, which a load applies once the part's instrument is in.
#include <unistd.h>

#include <filesystem>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/ControlCore.h"
#include "control/SessionFile.h"
#include "control/SessionPartEffects.h"

namespace part_effects_control_tests {

using namespace spindle;
using namespace spindle::control;
using spindle::test::loopbackPeer;
using spindle::test::RecordingSink;
using spindle::test::RecordingTarget;

namespace {

OscMessage msg(std::string path, std::vector<OscValue> args = {}) { return {std::move(path), std::move(args)}; }
OscValue I(int v) { return OscValue::i(v); }

std::vector<PartEffectInfo> gainAndFilter() { return {{0, "gain", 0, false}, {1, "filter", 2, false}}; }

}  // namespace

TEST_CASE("/spindle/part/effects replies each effect: number from 1, type, bus, bypassed", "[control][part-effects]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  target.effects[2] = gainAndFilter();
  core.handle(loopbackPeer(), msg("/spindle/part/effect/bypass", {I(3), I(2), I(1)}));
  CHECK(target.last() == "bypass 2 1 1");
  core.handle(loopbackPeer(), msg("/spindle/part/effects", {I(3)}));
  auto replies = sink.take();
  REQUIRE(replies.size() == 1);
  const OscMessage& m = replies[0].message;
  CHECK(m.path == "/spindle/part/effects");
  CHECK(m.typespec() == "iissiissi");
  CHECK(m.args[0].number() == 3);
  CHECK(m.args[1].number() == 1);
  CHECK(m.args[2].text == "gain");
  CHECK(m.args[3].text == "main");
  CHECK(m.args[4].number() == 0);
  CHECK(m.args[5].number() == 2);
  CHECK(m.args[6].text == "filter");
  CHECK(m.args[7].text == "fx2");
  CHECK(m.args[8].number() == 1);
  core.handle(loopbackPeer(), msg("/spindle/part/effects", {I(4)}));  // no instrument: only the part
  replies = sink.take();
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].message.typespec() == "i");
}

TEST_CASE("/spindle/part/effect/bypass: an effect or part that is not there gets an error naming the message",
          "[control][part-effects]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  target.effects[0] = gainAndFilter();
  const auto error = [&](const OscMessage& m) {
    target.calls.clear();
    core.handle(loopbackPeer(), m);
    const auto replies = sink.take();
    CHECK(target.calls.empty());
    REQUIRE(replies.size() == 1);
    CHECK(replies[0].message.path == "/spindle/error");
    CHECK(replies[0].message.args[0].text == "/spindle/part/effect/bypass");
    return replies[0].message.args[1].text;
  };
  CHECK(error(msg("/spindle/part/effect/bypass", {I(1), I(3), I(1)})) ==
        "part 1 has no effect 3 (its instrument has 2 effects)");
  CHECK(error(msg("/spindle/part/effect/bypass", {I(2), I(1), I(1)})) ==
        "part 2 has no effect 1 (its instrument has 0 effects)");
  CHECK(error(msg("/spindle/part/effect/bypass", {I(17), I(1), I(1)})).find("part") != std::string::npos);
  CHECK(error(msg("/spindle/part/effect/bypass", {I(1), I(0), I(1)})).find("effect") != std::string::npos);
  CHECK(error(msg("/spindle/part/effect/bypass", {I(1), I(1), I(2)})).find("on") != std::string::npos);
  CHECK(target.state.parts[0].effectBypass == 0);
}

TEST_CASE("session files keep each part's sends and bypassed effects", "[control][session][part-effects]") {
  SessionState state;
  state.parts[0].instrument = "/tmp/a.sfz";
  state.parts[0].reverbSend = 40;
  state.parts[0].chorusSend = 127;
  state.parts[0].effectBypass = 0b101 | (uint64_t{1} << 63);
  state.parts[5].reverbSend = 3;  // a part with only a send is written too
  const std::string text = formatSession(state);
  CHECK(text.find("reverb-send = 40\nchorus-send = 127\nbypass = 1 3 64\n") != std::string::npos);
  std::string error;
  const auto back = parseSession(text, "/tmp/s.spindle", error);
  INFO(error);
  REQUIRE(back);
  CHECK(back->parts == state.parts);
  uint64_t mask = 0;
  CHECK(parseBypassList("2, 4", mask));
  CHECK(mask == 0b1010);
  CHECK(formatBypassList(0) == "");
  for (const auto& [line, reason] : {std::pair{"bypass = 0", "bad value '0' for bypass"},
                                     {"bypass = 65", "bad value '65' for bypass"},
                                     {"bypass = 1 x", "bad value '1 x' for bypass"},
                                     {"reverb-send = 128", "bad value '128' for reverb-send"},
                                     {"chorus-send = -1", "bad value '-1' for chorus-send"}}) {
    INFO(line);
    CHECK_FALSE(parseSession(std::string("[part 2]\n") + line + "\n", "/tmp/s.spindle", error));
    CHECK(error == std::string("/tmp/s.spindle:2: ") + reason);
  }
}

TEST_CASE("loading a session sets the sends, then each part's bypass flags once its instrument has loaded",
          "[control][session][part-effects]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  target.effects[1] = gainAndFilter();
  SessionState state;
  state.parts[1].instrument = "/tmp/fx.sfz";
  state.parts[1].reverbSend = 64;
  state.parts[1].chorusSend = 10;
  state.parts[1].effectBypass = 0b110;  // effect 3 is past the instrument's two: left out
  state.parts[4].reverbSend = 20;
  const auto file = std::filesystem::temp_directory_path() / ("spindle-partfx-" + std::to_string(::getpid()) + ".spindle");
  std::string error;
  REQUIRE(writeSessionFile(file, state, error));
  REQUIRE(core.loadSession(file.string(), loopbackPeer(), nullptr, error));
  core.tick(ControlCore::Clock::now());
  std::filesystem::remove(file);
  const auto& calls = target.calls;
  const auto at = [&](const std::string& call) { return std::find(calls.begin(), calls.end(), call) - calls.begin(); };
  const auto load = at("load 1 /tmp/fx.sfz");
  REQUIRE(load < static_cast<long>(calls.size()));
  CHECK(at("midi 177 91 64") < load);  // before the load, and again after it
  CHECK(at("midi 180 91 20") < load);
  CHECK(std::count(calls.begin(), calls.end(), "midi 177 93 10") == 2);
  CHECK(at("bypass 1 1 1") > load);
  CHECK(std::count_if(calls.begin(), calls.end(), [](const std::string& c) { return c.rfind("bypass", 0) == 0; }) == 1);
  CHECK(target.partEffects(1)[1].bypassed);
  CHECK_FALSE(target.partEffects(1)[0].bypassed);
}

}  // namespace part_effects_control_tests
