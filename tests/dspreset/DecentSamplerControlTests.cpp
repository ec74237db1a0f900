// DecentSampler controls as part controls: the fixture presets' buttons and knobs, and a
// preset written here for each kind of binding, checked as regions, conditions and curves.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "Fixtures.h"
#include "TestUtil.h"
#include "catch.h"
#include "core/Controllers.h"
#include "dspreset/DecentSampler.h"

namespace decent_sampler_control_tests {

namespace fs = std::filesystem;
namespace ds = spindle::dspreset;
using spindle::ModTarget;
using spindle::Region;
using spindle::test::regionsPlaying;

namespace {

const spindle::instrument::Curve* curve(const spindle::instrument::Instrument& in, int index) {
  for (const auto& c : in.curves)
    if (c.index == index) return &c;
  return nullptr;
}

// The region's modulation of `target`, as the curve's values at CC values 0..127.
std::vector<float> modulation(const spindle::instrument::Instrument& in, const Region& r, ModTarget target, int cc) {
  for (uint8_t i = 0; i < r.ccModulationCount; ++i) {
    const spindle::CcModulation& m = r.ccModulations[i];
    if (m.target != target || m.cc != cc) continue;
    const auto* c = curve(in, m.curve);
    REQUIRE(c);
    CHECK(m.depth == 1.0f);
    return {c->points.begin(), c->points.end()};
  }
  return {};
}

bool holds(const Region& r, int cc, int midiValue) {
  const float x = static_cast<float>(midiValue) / 127.0f;
  for (const auto& c : r.ccConditions)
    if (c.cc == cc && (x < c.lo || x > c.hi)) return false;
  return true;
}

const fs::path kExample13 = "decentsampler/example-013-controlling-velocity-sensitivity";

}  // namespace

TEST_CASE("Steps: 128 MIDI values split evenly, each step sent as the middle of its run") {
  using spindle::controllers::stepOf;
  using spindle::controllers::stepValue;
  CHECK((stepOf(0, 2) == 0 && stepOf(63, 2) == 0 && stepOf(64, 2) == 1 && stepOf(127, 2) == 1));
  CHECK((stepOf(31, 4) == 0 && stepOf(32, 4) == 1 && stepOf(95, 4) == 2 && stepOf(96, 4) == 3));
  CHECK((stepOf(42, 3) == 0 && stepOf(43, 3) == 1 && stepOf(85, 3) == 1 && stepOf(86, 3) == 2));
  for (int n = 2; n <= 9; ++n)
    for (int k = 0; k < n; ++k) CHECK(stepOf(stepValue(k, n), n) == k);
  CHECK((stepValue(0, 2) == 31 && stepValue(1, 2) == 95));
}

TEST_CASE("Example 1's polyphony button: a Mono/Poly control on CC 102, one region copy per state", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "decentsampler/example-013-controlling-velocity-sensitivity");
  const auto in = ds::loadPreset(fixtures / kExample13 / "Example 1 - Controlling polyphony with a button.dspreset");
  REQUIRE(in.ok);
  REQUIRE(in.controllerLabels.size() == 1);
  const auto& label = in.controllerLabels[0];
  CHECK((label.cc == 102 && label.label == "Polyphony"));
  CHECK(label.steps == std::vector<std::string>{"Mono", "Poly"});
  REQUIRE(in.controllerDefaults.size() == 1);
  CHECK((in.controllerDefaults[0].cc == 102 && in.controllerDefaults[0].value == Approx(31.0 / 127.0)));
  CHECK(in.regions.size() == 14);  // 7 samples x 2 states
  const auto c3 = regionsPlaying(in, 60, 100);
  REQUIRE(c3.size() == 2);
  for (const auto& [file, r] : c3) CHECK(file == "Volca Keys Poly-V127-60-C3.wav");
  const Region* mono = holds(*c3[0].second, 102, 31) ? c3[0].second : c3[1].second;
  const Region* poly = mono == c3[0].second ? c3[1].second : c3[0].second;
  CHECK((mono->polyphony == 1 && poly->polyphony == 6 && mono->group == poly->group && mono->group > 0));
  for (int v : {0, 31, 63}) CHECK((holds(*mono, 102, v) && !holds(*poly, 102, v)));
  for (int v : {64, 95, 127}) CHECK((!holds(*mono, 102, v) && holds(*poly, 102, v)));
  CHECK(mono->ampVeltrack == 0.0f);
  // The group's lowpass at 5 kHz plays as the regions' filter (its gain: DecentSamplerEffectTests).
  for (const Region& r : in.regions) CHECK((r.filType == spindle::FilterType::Lpf2p && r.cutoff == 5000.0f));
  CHECK(spindle::test::countDiagnostics(in, "not played") == 0);
}

TEST_CASE("Example 2's velocity sensitivity button: AMP_VEL_TRACK through a stepped curve on CC 102", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "decentsampler/example-013-controlling-velocity-sensitivity");
  const auto in = ds::loadPreset(fixtures / kExample13 / "Example 2 - Controlling velocity sensitivity with a button.dspreset");
  REQUIRE(in.ok);
  REQUIRE(in.controllerLabels.size() == 1);
  CHECK(in.controllerLabels[0].label == "VELOCITY SENSITIVITY");  // the <label> before the button
  CHECK(in.controllerLabels[0].steps == std::vector<std::string>{"High", "Medium", "Low", "Off"});
  REQUIRE(in.regions.size() == 7);  // no copies: nothing switches a region on or off
  for (const Region& r : in.regions) {
    CHECK(r.ampVeltrack == Approx(100.0f));  // High, the initial state
    const auto points = modulation(in, r, ModTarget::AmpVeltrack, 102);
    REQUIRE(points.size() == 128);
    CHECK((points[0] == 0.0f && points[31] == 0.0f));
    CHECK((points[32] == Approx(-50.0f) && points[63] == Approx(-50.0f)));
    CHECK((points[64] == Approx(-80.0f) && points[96] == Approx(-100.0f) && points[127] == Approx(-100.0f)));
  }
}

TEST_CASE("Example 6A's knobs: Attack and Release become 128-position controls; effect knobs move the effects", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "decentsampler/example-006-working-with-note-sequences");
  const auto in = ds::loadPreset(fixtures / "decentsampler/example-006-working-with-note-sequences" /
                                 "Example 6A - Triggering Sequences Using MIDI.dspreset");
  REQUIRE(in.ok);
  REQUIRE(in.controllerLabels.size() == 5);
  CHECK((in.controllerLabels[0].label == "Attack" && in.controllerLabels[0].cc == 102 && in.controllerLabels[0].steps.empty()));
  CHECK((in.controllerLabels[1].label == "Release" && in.controllerLabels[1].cc == 103));
  CHECK(in.controllerDefaults[0].value == Approx(0.0f));         // 0.01 of 0..4: position 0
  CHECK(in.controllerDefaults[1].value == Approx(6.0f / 127.0f));  // 1 of 0..20
  CHECK(spindle::test::countDiagnostics(in, "effect") == 0);
  REQUIRE(in.regions.size() == 15);
  const Region& r = in.regions[0];
  CHECK(r.loopCrossfadeFrames == 10);
  const auto attack = modulation(in, r, ModTarget::AmpegAttack, 102);
  REQUIRE(attack.size() == 128);
  CHECK(attack[0] == Approx(0.0f));  // the exact 0.01 s the preset starts at
  CHECK(attack[64] == Approx(4.0 * 64 / 127 - 0.01).margin(1e-5));
  CHECK(attack[127] == Approx(3.99f));
  const auto release = modulation(in, r, ModTarget::AmpegRelease, 103);
  REQUIRE(release.size() == 128);
  CHECK(release[6] == Approx(0.0f));
  CHECK(release[127] == Approx(19.0f));
  CHECK(release[0] == Approx(0.001f - 1.0f));  // release is at least 1 ms
}

namespace {

// A menu switching two groups, a button on a tag's volume and enable, a knob through a
// table on CC 20 (the preset's own <midi> binding), and a binding not applied on load.
const char* kControls = R"(<?xml version="1.0" encoding="UTF-8"?>
<DecentSampler>
  <ui><tab>
    <menu x="0" y="0" value="2" parameterName="Articulation">
      <option name="Sustain">
        <binding type="general" level="group" position="0" parameter="ENABLED" translation="fixed_value" translationValue="true"/>
        <binding type="general" level="group" position="1" parameter="ENABLED" translation="fixed_value" translationValue="false"/>
      </option>
      <option name="Staccato">
        <binding type="general" level="group" position="0" parameter="ENABLED" translation="fixed_value" translationValue="false"/>
        <binding type="general" level="group" groupTags="stac" parameter="ENABLED" translation="fixed_value" translationValue="true"/>
      </option>
    </menu>
    <label text="Room"/>
    <button value="0">
      <state name="Full"><binding type="amp" level="tag" identifier="room" parameter="AMP_VOLUME" translation="fixed_value" translationValue="1"/></state>
      <state name="Half"><binding type="amp" level="tag" identifier="room" parameter="AMP_VOLUME" translation="fixed_value" translationValue="0.5"/></state>
      <state name="Off"><binding type="amp" level="tag" identifier="room" parameter="TAG_ENABLED" translation="fixed_value" translationValue="false"/></state>
    </button>
    <labeled-knob label="Tone" minValue="0" maxValue="1" value="0.5">
      <binding type="amp" level="instrument" parameter="GLOBAL_TUNING" translation="table" translationTable="0,-2;0.5,0;1,1"/>
      <binding type="amp" level="instrument" parameter="PAN" translation="linear" translationOutputMin="-50" translationOutputMax="50" triggerOnLoad="false"/>
    </labeled-knob>
    <button value="0">
      <state name="A"><binding type="effect" level="instrument" position="0" parameter="FX_MIX"/></state>
      <state name="B"><binding type="note_sequence" level="instrument" seqIndex="0"/></state>
    </button>
  </tab></ui>
  <groups pan="10">
    <group><sample path="sus.wav" loNote="60" hiNote="60" tags="close"/></group>
    <group tags="stac" enabled="false">
      <sample path="stac.wav" loNote="60" hiNote="60" tags="close"/>
      <sample path="room.wav" loNote="60" hiNote="60" tags="room"/>
    </group>
    <group enabled="false"><sample path="never.wav" loNote="60" hiNote="60"/></group>
  </groups>
  <midi><cc number="20"><binding level="ui" type="control" parameter="VALUE" position="2"/></cc></midi>
</DecentSampler>
)";

}  // namespace

TEST_CASE("A preset's menu, tag button and table knob: group and tag switches, live volumes, own CC") {
  spindle::test::TempDir dir;
  const auto in = ds::loadPreset(dir.write("c.dspreset", kControls));
  REQUIRE(in.ok);
  REQUIRE(in.controllerLabels.size() == 4);  // the effect/sequence button names an effect the preset lacks
  CHECK((in.controllerLabels[0].label == "Articulation" && in.controllerLabels[0].cc == 102));
  CHECK((in.controllerLabels[1].label == "Room" && in.controllerLabels[1].cc == 103));
  CHECK((in.controllerLabels[2].label == "Tone" && in.controllerLabels[2].cc == 20));
  CHECK(in.controllerDefaults[0].value == Approx(95.0 / 127.0));  // a menu's value is 1-based: Staccato
  CHECK(spindle::test::countDiagnostics(in, "bindings to note sequences") == 1);
  CHECK(spindle::test::countDiagnostics(in, "bindings to FX_MIX of effect 0 not played (ignored): <effects> has no such effect") == 1);
  // never.wav: its group is off and no control turns it on, so it is not even listed.
  CHECK(std::none_of(in.samples.begin(), in.samples.end(), [](const std::string& s) { return s.find("never") != std::string::npos; }));
  const auto playing = regionsPlaying(in, 60, 100);
  const auto which = [&](int articulation, int room) {
    std::vector<std::string> out;
    for (const auto& [file, r] : playing)
      if (holds(*r, 102, articulation) && holds(*r, 103, room)) out.push_back(file);
    std::sort(out.begin(), out.end());
    return out;
  };
  using Files = std::vector<std::string>;
  CHECK(which(0, 0) == Files{"sus.wav"});
  CHECK(which(127, 0) == Files{"room.wav", "stac.wav"});
  CHECK(which(127, 64) == Files{"room.wav", "stac.wav"});
  CHECK(which(127, 127) == Files{"stac.wav"});  // Off disables the room tag
  for (const auto& [file, r] : playing) {
    // The knob's table: tuning -2..0..+1 semitones against its initial 0; its pan
    // binding is not applied on load (the <groups> pan stays), but the knob moves it.
    CHECK(r->pan == Approx(10.0f));
    const auto tune = modulation(in, *r, ModTarget::Pitch, 20);
    REQUIRE(tune.size() == 128);
    CHECK((tune[0] == Approx(-200.0f) && tune[127] == Approx(100.0f) && tune[64] == Approx(0.0f)));
    CHECK(tune[32] == Approx(-200.0 + 200.0 * (32.0 / 127.0) / 0.5).margin(1e-3));
    const auto pan = modulation(in, *r, ModTarget::Pan, 20);
    REQUIRE(pan.size() == 128);
    CHECK((pan[0] == Approx(-60.0f) && pan[127] == Approx(40.0f)));
    const auto volume = modulation(in, *r, ModTarget::Volume, 103);
    if (file == "room.wav") {
      REQUIRE(volume.size() == 128);
      CHECK((volume[0] == 0.0f && volume[42] == 0.0f && volume[43] == Approx(20.0 * std::log10(0.5)) && volume[85] == volume[43]));
    } else {
      CHECK(volume.empty());
    }
  }
}

TEST_CASE("DecentSampler loopCrossfade is a crossfade in the file's frames") {
  spindle::test::TempDir dir;
  const auto in = ds::loadPreset(dir.write("x.dspreset", R"(<DecentSampler><groups>
    <group loopCrossfade="480"><sample path="a.wav" loopEnabled="true" loopStart="1000" loopEnd="4000"/>
      <sample path="b.wav" loopCrossfade="0"/></group></groups></DecentSampler>)"));
  REQUIRE(in.regions.size() == 2);
  CHECK((in.regions[0].loopCrossfadeFrames == 480 && in.regions[0].loopCrossfade == 0.0f));
  CHECK(in.regions[1].loopCrossfadeFrames == 0);
  CHECK(spindle::test::countDiagnostics(in, "crossfade") == 0);
}

TEST_CASE("A knob reaches only the samples that take its setting from where it sets it") {
  spindle::test::TempDir dir;
  const auto in = ds::loadPreset(dir.write("k.dspreset", R"(<DecentSampler><ui><tab>
    <labeled-knob label="Attack" minValue="0" maxValue="1" value="0"><binding type="amp" level="instrument" parameter="ENV_ATTACK"/></labeled-knob>
    </tab></ui><groups><group><sample path="a.wav" loNote="1" hiNote="1"/><sample path="b.wav" loNote="2" hiNote="2" attack="0.5"/>
    <sample path="c.wav" loNote="3" hiNote="3" volume="-3dB"/></group><group attack="0.25"><sample path="d.wav" loNote="4" hiNote="4"/></group>
    </groups></DecentSampler>)"));
  REQUIRE(in.regions.size() == 4);
  const auto attackOf = [&](int key) { return modulation(in, *regionsPlaying(in, key, 100).at(0).second, ModTarget::AmpegAttack, 102); };
  for (int key : {1, 3}) {
    const auto points = attackOf(key);
    REQUIRE(points.size() == 128);
    CHECK(points[127] == Approx(1.0f));
  }
  CHECK(attackOf(2).empty());  // its own attack wins
  CHECK(attackOf(4).empty());  // its group's attack wins
  CHECK(regionsPlaying(in, 2, 100).at(0).second->ampeg.attack == Approx(0.5f));
}

}  // namespace decent_sampler_control_tests
