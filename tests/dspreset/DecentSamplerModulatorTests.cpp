// DecentSampler <modulators> as region modulation: the sources, depths and region values
// each binding gives, and the report of what is not played (once each, with the reason).
#include <cmath>
#include <string>

#include "TestUtil.h"
#include "catch.h"
#include "core/Controllers.h"
#include "dspreset/DecentSampler.h"

namespace decent_sampler_modulator_tests {

namespace ds = spindle::dspreset;
using spindle::ModTarget;
using spindle::Region;

namespace {

spindle::instrument::Instrument load(spindle::test::TempDir& dir, const std::string& modulators,
                                     const std::string& groupAttributes = "") {
  dir.write("p.dspreset", "<DecentSampler><groups volume=\"0.5\"><group" + groupAttributes +
                              "><effects><effect type=\"gain\" level=\"0\"/><effect type=\"lowpass\" frequency=\"800\"/>"
                              "<effect type=\"highpass\" frequency=\"100\"/></effects>"
                              "<sample path=\"a.wav\"/></group><group><sample path=\"b.wav\" loNote=\"90\" hiNote=\"90\"/></group>"
                              "</groups><modulators>" + modulators + "</modulators></DecentSampler>");
  auto in = ds::loadPreset(dir.path() / "p.dspreset");
  REQUIRE(in.ok);
  REQUIRE(in.regions.size() == 2);
  return in;
}

size_t warnings(const spindle::instrument::Instrument& in, const std::string& part) {
  size_t n = 0;
  for (const auto& d : in.diagnostics) n += d.message.find(part) != std::string::npos ? 1 : 0;
  return n;
}

float depth(const spindle::FlexLfo& l, ModTarget t) { return l.depth[static_cast<size_t>(t)]; }

}  // namespace

TEST_CASE("DecentSampler LFO on a group filter frequency: a flex LFO of Hz on the filter the effect became") {
  spindle::test::TempDir dir;
  const auto in = load(dir, R"(<lfo shape="sine" frequency="3" delayTime="0.25" modAmount="0.5" scope="voice">
    <binding type="effect" level="group" groupIndex="0" effectIndex="1" parameter="FX_FILTER_FREQUENCY"
      modBehavior="add" translationOutputMin="100" translationOutputMax="2100"/>
    <binding type="effect" level="group" groupIndex="0" effectIndex="2" parameter="FX_FILTER_FREQUENCY"
      modBehavior="multiply" translationOutputMin="1" translationOutputMax="3"/></lfo>)");
  const Region& a = in.regions[0];
  REQUIRE(a.lfos.size() == 2);
  // add 100 + 2000 x: the cutoff starts 100 Hz higher; x = 0.5 (modAmount) of the 0..1 wave.
  CHECK(a.filType == spindle::FilterType::Lpf2p);
  CHECK(a.cutoff == Approx(900.0f));
  CHECK(depth(a.lfos[0], ModTarget::CutoffHz) == Approx(1000.0f));
  CHECK((a.lfos[0].freq == Approx(3.0f) && a.lfos[0].delay == Approx(0.25f) && a.lfos[0].wave == Approx(1.0f)));
  CHECK((a.lfos[0].scale == Approx(0.5f) && a.lfos[0].offset == Approx(0.5f)));  // the sine read as 0..1
  // multiply 1 + 2 x on the highpass at 100 Hz: filter 2, 0 .. +100 Hz.
  CHECK(a.fil2Type == spindle::FilterType::Hpf2p);
  CHECK(a.cutoff2 == Approx(100.0f));
  CHECK(depth(a.lfos[1], ModTarget::Cutoff2Hz) == Approx(100.0f));
  CHECK(in.regions[1].lfos.empty());  // the other group
  CHECK(a.lfos[0].clock == 0);
  CHECK(warnings(in, "modulators") == 0);
  CHECK(warnings(in, "not played") == 0);
}

TEST_CASE("DecentSampler envelope, velocity and CC on volume, tuning, pan and the amplitude envelope") {
  spindle::test::TempDir dir;
  const auto in = load(dir, R"(<envelope attack="1" decay="2" sustain="0.25" release="3" attackCurve="0" scope="voice">
      <binding type="amp" level="group" groupIndex="0" parameter="GROUP_TUNING" modBehavior="add" translationOutputMax="2"/></envelope>
    <midiVelocity><binding type="amp" level="group" groupIndex="0" parameter="PAN" modBehavior="set"
      translationOutputMin="-50" translationOutputMax="50"/>
      <binding type="amp" level="group" groupIndex="0" parameter="ENV_ATTACK" modBehavior="set" translationOutputMin="0.5" translationOutputMax="0"/></midiVelocity>
    <midiCC number="11"><binding type="amp" level="instrument" parameter="AMP_VOLUME" modBehavior="multiply"
      translationOutputMin="0.5" translationOutputMax="1"/></midiCC>)", " pan=\"10\"");
  const Region& a = in.regions[0];
  REQUIRE(a.egs.size() == 1);
  const spindle::FlexEg& e = a.egs[0];
  CHECK((e.points == 3 && e.sustain == Approx(1.0f)));
  CHECK((e.point[0].time == Approx(1.0f) && e.point[0].level == Approx(1.0f) && e.point[0].shape == Approx(0.0f)));
  CHECK((e.point[1].time == Approx(2.0f) && e.point[1].level == Approx(0.25f) && e.point[1].shape == Approx(-4.0f)));
  CHECK((e.point[2].time == Approx(3.0f) && e.point[2].level == Approx(0.0f)));
  CHECK(e.depth[static_cast<size_t>(ModTarget::Pitch)] == Approx(200.0f));
  REQUIRE(a.ccModulationCount == 3);
  // PAN set -50 + 100 v over the group's 10: -50 at the region (velocity 0), +100 by velocity.
  CHECK(a.pan == Approx(-50.0f));
  CHECK((a.ccModulations[0].cc == spindle::controllers::kNoteOnVelocity && a.ccModulations[0].target == ModTarget::Pan));
  CHECK(a.ccModulations[0].depth == Approx(100.0f));
  // ENV_ATTACK set 0.5 - 0.5 v: 0.5 s at the region, -0.5 s by velocity, at note start.
  CHECK(a.ampeg.attack == Approx(0.5f));
  CHECK((a.ccModulations[1].target == ModTarget::AmpegAttack && a.ccModulations[1].depth == Approx(-0.5f)));
  // AMP_VOLUME multiply: the gain times 0.5 + 0.5 x by CC 11, through a generated curve.
  const spindle::CcModulation& v = a.ccModulations[2];
  CHECK((v.cc == 11 && v.target == ModTarget::Amplitude && v.depth == Approx(100.0f)));
  REQUIRE(!in.curves.empty());
  CHECK(in.curves.back().index == v.curve);
  CHECK(in.curves.back().points[0] == Approx(0.5f));
  CHECK(in.curves.back().points[127] == Approx(1.0f));
  CHECK(in.regions[1].ccModulationCount == 1);  // the instrument's volume reaches the other group too
}

TEST_CASE("DecentSampler modulators not played are reported once each with the reason") {
  spindle::test::TempDir dir;
  const auto in = load(dir, R"(<random mode="periodic"><binding type="amp" level="group" groupIndex="0" parameter="PAN"/></random>
    <random><binding type="amp" level="group" groupIndex="0" parameter="PAN"/></random>
    <unknownSource><binding type="amp" level="group" groupIndex="0" parameter="PAN"/></unknownSource>
    <lfo scope="voice"><binding type="effect" level="group" groupIndex="0" effectIndex="1" parameter="FX_FILTER_FREQUENCY"
      translation="table" translationTable="0,33;1,2000"/></lfo>
    <midiCC number="1"><binding type="effect" level="group" groupIndex="0" effectIndex="0" parameter="FX_FILTER_FREQUENCY"/>
      <binding type="amp" level="group" groupIndex="0" parameter="PAN" translation="table" translationTable="0,1;x"/>
      <binding type="effect" level="group" groupIndex="0" effectIndex="1" parameter="FX_FILTER_LFO_RATE"/>
      <binding type="effect" level="instrument" effectIndex="0" parameter="FX_FILTER_FREQUENCY"/></midiCC>
    <lfo scope="voice"><binding type="effect" level="group" groupIndex="0" effectIndex="1" parameter="FX_FILTER_RESONANCE"/></lfo>
    <midiCC number="300"/>
    <lfo scope="voice"><binding type="amp" level="group" groupIndex="0" parameter="ENV_ATTACK"/></lfo>)");
  CHECK(in.regions[0].lfos.empty());
  CHECK(in.regions[0].ccModulationCount == 0);
  CHECK(warnings(in, "global-scope <random> not played") == 1);
  CHECK(warnings(in, "<unknownSource> in <modulators> not played (unknown modulator)") == 1);
  CHECK(warnings(in, "translation=\"table\" from an LFO, envelope or random not played") == 1);
  CHECK(warnings(in, "translationTable \"0,1;x\" is not two or more input,output pairs") == 1);
  CHECK(warnings(in, "that is not the group's first or second filter") == 1);
  CHECK(warnings(in, "FX_FILTER_LFO_RATE not played (no per-voice parameter") == 1);
  CHECK(warnings(in, "LFO, envelope and random bindings to FX_FILTER_RESONANCE not played") == 1);
  CHECK(warnings(in, "<midiCC> without a number 0..127 (\"300\")") == 1);
  CHECK(warnings(in, "ENV_ATTACK not played (the amplitude envelope's times are taken at note start)") == 1);
  CHECK(warnings(in, "level=\"instrument\"") == 0);  // instrument effects: the effect buses report them
  CHECK(warnings(in, "instrument FX_FILTER_FREQUENCY") == 0);
}

TEST_CASE("DecentSampler global LFO: a flex LFO on the engine's clock") {
  spindle::test::TempDir dir;
  const auto in = load(dir, R"(<lfo shape="square" frequency="2"><binding type="amp" level="group" groupIndex="0"
    parameter="PAN" modBehavior="add" translationOutputMax="40"/></lfo>)");
  REQUIRE(in.regions[0].lfos.size() == 1);
  const spindle::FlexLfo& l = in.regions[0].lfos[0];
  CHECK(l.clock == 1);
  CHECK((l.wave == Approx(3.0f) && l.scale == Approx(1.0f) && l.offset == Approx(0.0f)));
  CHECK(depth(l, ModTarget::Pan) == Approx(40.0f));
  CHECK(warnings(in, "modulators") == 0);
}

TEST_CASE("DecentSampler CC table on a group filter: a generated curve of the Hz added at each CC value") {
  spindle::test::TempDir dir;
  const auto in = load(dir, R"(<midiCC number="74"><binding type="effect" level="group" groupIndex="0" effectIndex="1"
    parameter="FX_FILTER_FREQUENCY" modBehavior="add" translation="table"
    translationTable="0,33;0.3,150;0.4,450;0.5,1100;0.7,4100;0.9,11000;1.0001,22000"/></midiCC>)");
  const Region& a = in.regions[0];
  REQUIRE(a.ccModulationCount == 1);
  const spindle::CcModulation& m = a.ccModulations[0];
  CHECK((m.cc == 74 && m.target == ModTarget::CutoffHz && m.depth == Approx(1.0f)));
  CHECK(a.cutoff == Approx(800.0f));  // the lowpass as written; the curve holds all of the change
  const spindle::instrument::Curve* curve = nullptr;
  for (const auto& c : in.curves) curve = c.index == m.curve ? &c : curve;
  REQUIRE(curve != nullptr);
  CHECK(curve->points[0] == Approx(33.0f));
  CHECK(curve->points[127] == Approx(11000.0 + 11000.0 * 0.1 / 0.1001));
  // CC 64 (x = 0.50394): between (0.5, 1100) and (0.7, 4100).
  CHECK(curve->points[64] == Approx(1100.0 + 3000.0 * (64.0 / 127.0 - 0.5) / 0.2).epsilon(1e-4));
}

TEST_CASE("DecentSampler CC on a group filter's resonance: a curve of the dB change from the effect's Q") {
  spindle::test::TempDir dir;
  const auto in = load(dir, R"(<midiCC number="21"><binding type="effect" level="group" groupIndex="0" effectIndex="1"
    parameter="FX_FILTER_RESONANCE" modBehavior="set" translationOutputMin="0.7071" translationOutputMax="5"/></midiCC>)");
  const Region& a = in.regions[0];
  REQUIRE(a.ccModulationCount == 1);
  const spindle::CcModulation& m = a.ccModulations[0];
  CHECK((m.cc == 21 && m.target == ModTarget::Resonance && m.depth == Approx(1.0f)));
  const double q07 = 20.0 * std::log10(0.7 * std::sqrt(2.0));   // -0.088 dB: the lowpass's default Q 0.7
  CHECK(a.resonance == Approx(q07).margin(1e-3));
  const spindle::instrument::Curve* curve = nullptr;
  for (const auto& c : in.curves) curve = c.index == m.curve ? &c : curve;
  REQUIRE(curve != nullptr);
  CHECK(curve->points[0] == Approx(-q07).margin(1e-3));  // set to Q 0.7071: 0 dB
  CHECK(curve->points[127] == Approx(20.0 * std::log10(5.0 * std::sqrt(2.0)) - q07).epsilon(1e-4));  // 16.99 dB
}

TEST_CASE("DecentSampler AMP_VOLUME from an envelope down to a gain of 0: reported, not played") {
  spindle::test::TempDir dir;
  const auto in = load(dir, R"(<envelope attack="1" scope="voice"><binding type="amp" level="group" groupIndex="0"
    parameter="AMP_VOLUME" modBehavior="set" translationOutputMin="0" translationOutputMax="1"/></envelope>
    <lfo scope="voice" frequency="2"><binding type="amp" level="group" groupIndex="0"
    parameter="AMP_VOLUME" modBehavior="set" translationOutputMin="0" translationOutputMax="1"/></lfo>)");
  CHECK(in.regions[0].egs.empty());
  REQUIRE(in.regions[0].lfos.size() == 1);  // no delay: the LFO's offset holds the gain's 0
  const spindle::FlexLfo& l = in.regions[0].lfos[0];
  // 1 + depth% (0.5 w + offset) = 0.5 w + 0.5: depth 100, offset -0.5.
  CHECK((depth(l, ModTarget::Amplitude) == Approx(100.0f) && l.scale == Approx(0.5f) && l.offset == Approx(-0.5f)));
  CHECK(warnings(in, "from an envelope or a delayed LFO not played (the voice's gain can only be scaled") == 1);
}

}  // namespace decent_sampler_modulator_tests
