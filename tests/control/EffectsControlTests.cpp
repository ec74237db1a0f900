// The shared reverb and chorus through the control side: the session file's [effects]
// keeps every setting, OSC sets and reads them back, and a bad value gets an error reply
// that names the reason while nothing reaches the target.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "RecordingTarget.h"
#include "catch.h"
#include "control/ControlCore.h"
#include "control/SessionFile.h"

namespace effects_control_tests {

using namespace spindle;
using namespace spindle::control;
using spindle::test::loopbackPeer;
using spindle::test::RecordingSink;
using spindle::test::RecordingTarget;

namespace {

// Every setting away from its default.
EffectValues changed() {
  EffectValues v;
  v.set(EffectParam::ReverbOn, 0.0f);
  v.set(EffectParam::ReverbRoomSize, 0.73f);
  v.set(EffectParam::ReverbDamping, 0.125f);
  v.set(EffectParam::ReverbWidth, 42.5f);
  v.set(EffectParam::ReverbLevel, 0.3f);
  v.set(EffectParam::ChorusOn, 0.0f);
  v.set(EffectParam::ChorusVoices, 17.0f);
  v.set(EffectParam::ChorusLevel, 7.25f);
  v.set(EffectParam::ChorusSpeed, 0.1f);
  v.set(EffectParam::ChorusDepth, 255.5f);
  v.set(EffectParam::MasterGain, -7.25f);
  return v;
}

OscMessage msg(std::string path, std::vector<OscValue> args = {}) { return {std::move(path), std::move(args)}; }

}  // namespace

TEST_CASE("a session keeps every reverb and chorus setting through a write and a read", "[control][session][effects]") {
  SessionState state;
  state.effects = changed();
  for (const auto& info : kEffectParamTable) CHECK(state.effects.get(info.id) != info.def);
  const auto file = std::filesystem::temp_directory_path() / ("spindle-effects-" + std::to_string(::getpid()) + ".spindle");
  std::string error;
  REQUIRE(writeSessionFile(file, state, error));
  const auto back = readSessionFile(file, error);
  std::filesystem::remove(file);
  REQUIRE(back);
  for (const auto& info : kEffectParamTable) {
    INFO(info.name);
    CHECK(back->effects.get(info.id) == state.effects.get(info.id));
  }
  CHECK(*back == state);
  const std::string text = formatSession(state);
  CHECK_THAT(text, Catch::Contains("[effects]\nreverb = off\nreverb-room-size = 0.73\nreverb-damping = 0.125\n"));
  CHECK_THAT(text, Catch::Contains("chorus-voices = 17\nchorus-level = 7.25\nchorus-speed = 0.1\nchorus-depth = 255.5\n"));
}

TEST_CASE("a session without [effects] has FluidSynth's defaults; bad lines name file and line", "[control][session][effects]") {
  std::string error;
  const auto plain = parseSession("[settings]\npolyphony = 8\n", "/tmp/s.spindle", error);
  REQUIRE(plain);
  CHECK(plain->effects == EffectValues{});
  CHECK(plain->effects.get(EffectParam::ReverbRoomSize) == 0.2f);
  CHECK(plain->effects.get(EffectParam::ChorusVoices) == 3.0f);
  const auto some = parseSession("[effects]\nreverb-level = 0.5\n", "/tmp/s.spindle", error);
  REQUIRE(some);
  CHECK(some->effects.get(EffectParam::ReverbLevel) == 0.5f);
  CHECK(some->effects.get(EffectParam::ChorusDepth) == 8.0f);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[effects]\nreverb-level = 2\n", "/tmp/s.spindle:2: bad value '2' for reverb-level (expected 0 to 1)"},
      {"[effects]\n\nchorus-voices = 2.5\n",
       "/tmp/s.spindle:3: bad value '2.5' for chorus-voices (expected a whole number 0 to 99)"},
      {"[effects]\nreverb = maybe\n", "/tmp/s.spindle:2: bad value 'maybe' for reverb (expected on or off)"},
      {"[effects]\nreverb-size = 1\n", "/tmp/s.spindle:2: unknown effects setting 'reverb-size' (reverb, "},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    CHECK_FALSE(parseSession(text, "/tmp/s.spindle", error));
    CHECK(error.substr(0, expected.size()) == expected);
  }
}

TEST_CASE("loading a session sets every effect setting on the target", "[control][session][effects]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  SessionState state;
  state.effects = changed();
  const auto file = std::filesystem::temp_directory_path() / ("spindle-fxload-" + std::to_string(::getpid()) + ".spindle");
  std::string error;
  REQUIRE(writeSessionFile(file, state, error));
  REQUIRE(core.loadSession(file.string(), loopbackPeer(), nullptr, error));
  std::filesystem::remove(file);
  CHECK(target.state.effects == changed());
}

TEST_CASE("OSC sets each reverb and chorus setting and reads it back", "[control][effects]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  for (const auto& [path, value] : {std::pair{"/spindle/reverb/room-size", 0.85}, {"/spindle/reverb/damping", 0.4},
                                    {"/spindle/reverb/width", 2.0}, {"/spindle/reverb/level", 0.6},
                                    {"/spindle/chorus/level", 3.5}, {"/spindle/chorus/speed", 1.25},
                                    {"/spindle/chorus/depth", 20.0}})
    core.handle(loopbackPeer(), msg(path, {OscValue::f(value)}));
  core.handle(loopbackPeer(), msg("/spindle/reverb/on", {OscValue::i(0)}));
  core.handle(loopbackPeer(), msg("/spindle/chorus/voices", {OscValue::i(6)}));
  CHECK(sink.take().empty());  // setting replies nothing
  core.handle(loopbackPeer(), msg("/spindle/reverb"));
  core.handle(loopbackPeer(), msg("/spindle/chorus"));
  const auto replies = sink.take();
  REQUIRE(replies.size() == 2);
  const OscMessage& reverb = replies[0].message;
  CHECK(reverb.path == "/spindle/reverb");
  REQUIRE(reverb.typespec() == "iffff");
  CHECK(reverb.args[0].number() == 0);
  CHECK(reverb.args[1].number() == Approx(0.85));
  CHECK(reverb.args[2].number() == Approx(0.4));
  CHECK(reverb.args[3].number() == Approx(2.0));
  CHECK(reverb.args[4].number() == Approx(0.6));
  const OscMessage& chorus = replies[1].message;
  CHECK(chorus.path == "/spindle/chorus");
  REQUIRE(chorus.typespec() == "iifff");
  CHECK(chorus.args[0].number() == 1);
  CHECK(chorus.args[1].number() == 6);
  CHECK(chorus.args[2].number() == Approx(3.5));
  CHECK(chorus.args[3].number() == Approx(1.25));
  CHECK(chorus.args[4].number() == Approx(20.0));
}

TEST_CASE("a bad effect value over OSC gets an error naming the reason and changes nothing", "[control][effects]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  const std::vector<std::pair<OscMessage, std::string>> cases = {
      {msg("/spindle/reverb/room-size", {OscValue::f(1.5)}), "argument 1 (value) must be 0..1, got 1.5"},
      {msg("/spindle/reverb/level", {OscValue::s("loud")}), "argument 1 (value) must be a number"},
      {msg("/spindle/chorus/voices", {OscValue::f(2.5)}), "argument 1 (voices) must be an integer"},
      {msg("/spindle/chorus/voices", {OscValue::i(100)}), "argument 1 (voices) must be 0..99, got 100"},
      {msg("/spindle/chorus/speed", {OscValue::f(0.05)}), "argument 1 (value) must be 0.1..5, got 0.05"},
      {msg("/spindle/chorus/depth"), "expects 1 argument(s) 'f', got 0"},
      {msg("/spindle/part/reverb", {OscValue::i(17), OscValue::i(3)}), "argument 1 (part) must be 1..16, got 17"},
  };
  for (const auto& [message, reason] : cases) {
    INFO(message.path);
    core.handle(loopbackPeer(), message);
    const auto replies = sink.take();
    REQUIRE(replies.size() == 1);
    CHECK(replies[0].message.path == "/spindle/error");
    REQUIRE(replies[0].message.args.size() == 2);
    CHECK(replies[0].message.args[0].text == message.path);
    CHECK_THAT(replies[0].message.args[1].text, Catch::Contains(reason));
  }
  CHECK(target.calls.empty());
  CHECK(target.state.effects == EffectValues{});
}

TEST_CASE("OSC reads and sets a part's reverb and chorus sends as its channel's CC91 and CC93", "[control][effects]") {
  RecordingTarget target;
  RecordingSink sink;
  ControlCore core(target, sink);
  target.sends[4] = {0.5f, 40.0f / 127.0f};
  core.handle(loopbackPeer(), msg("/spindle/part/sends", {OscValue::i(5)}));
  const auto replies = sink.take();
  REQUIRE(replies.size() == 1);
  const OscMessage& m = replies[0].message;
  CHECK(m.path == "/spindle/part/sends");
  REQUIRE(m.typespec() == "iii");
  CHECK(m.args[0].number() == 5);
  CHECK(m.args[1].number() == 64);
  CHECK(m.args[2].number() == 40);
  core.handle(loopbackPeer(), msg("/spindle/part/reverb", {OscValue::i(5), OscValue::i(100)}));
  CHECK(target.last() == "midi 180 91 100");
  core.handle(loopbackPeer(), msg("/spindle/part/chorus", {OscValue::i(16), OscValue::i(0)}));
  CHECK(target.last() == "midi 191 93 0");
}

}  // namespace effects_control_tests
