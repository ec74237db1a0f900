// DecentSampler <effects> read as bus effects and region processing: each type's
// parameters in the bus's units, group effects on the regions, effect bindings as
// controller curves, global LFOs, musical time, and what is reported as not played.
#include <cmath>
#include <fstream>
#include <string>

#include "Fixtures.h"
#include "TestUtil.h"
#include "catch.h"
#include "dspreset/DecentSampler.h"
#include "dspreset/MusicalTime.h"

namespace decent_sampler_effect_tests {

namespace fs = std::filesystem;
namespace ds = spindle::dspreset;
using spindle::BusEffectType;
using spindle::BusParam;
using spindle::Region;
using spindle::test::countDiagnostics;

namespace {

float value(const spindle::BusEffect& e, BusParam p) { return e.values[static_cast<size_t>(p)]; }

spindle::instrument::Instrument load(const std::string& name, const std::string& body) {
  const fs::path dir = fs::temp_directory_path() / "spindle-dsfx-tests";
  fs::create_directories(dir);
  std::ofstream(dir / (name + ".dspreset")) << "<DecentSampler>" << body
                                            << "<groups><group><sample path=\"a.wav\" loNote=\"0\" hiNote=\"127\"/>"
                                               "</group></groups></DecentSampler>";
  return ds::loadPreset(dir / (name + ".dspreset"));
}

const char* kAllTypes = R"(<effects>
    <effect type="lowpass" frequency="1000" resonance="2"/>
    <effect type="hipass"/>
    <effect type="lowpass_1pl" frequency="500"/>
    <effect type="notch" frequency="3000" Q="4"/>
    <effect type="peak" frequency="800" q="1.4142" gain="2"/>
    <effect type="gain" level="-6"/>
    <effect type="gain" levelUnit="linear" level="0.5"/>
    <effect type="delay" delayTime="0.25" stereoOffset="0.02" feedback="0.5" wetLevel="0.8"/>
    <effect type="reverb" roomSize="0.4" damping="0.6" wetLevel="0.3"/>
    <effect type="chorus" mix="0.4"/>
    <effect type="phaser" centerFrequency="800" feedback="-0.5"/>
    <effect type="wave_folder" drive="4" threshold="0.5"/>
    <effect type="wave_shaper" drive="10" highQuality="false"/>
  </effects>)";

}  // namespace

TEST_CASE("Musical time: indices 0..20 are 1/32 triplet .. 4 bars in quarter-note beats") {
  CHECK(ds::musicalTimeBeats(0) == Approx(1.0 / 12.0));  // 1/32 triplet
  CHECK(ds::musicalTimeBeats(1) == Approx(0.125));       // 1/32
  CHECK(ds::musicalTimeBeats(2) == Approx(0.1875));      // 1/32 dotted
  CHECK(ds::musicalTimeBeats(7) == Approx(0.5));         // 1/8
  CHECK(ds::musicalTimeBeats(9) == Approx(2.0 / 3.0));   // 1/4 triplet
  CHECK(ds::musicalTimeBeats(10) == Approx(1.0));        // 1/4: the guide's example default
  CHECK(ds::musicalTimeBeats(11) == Approx(1.5));        // 1/4 dotted
  CHECK(ds::musicalTimeBeats(16) == Approx(4.0));        // a whole note
  CHECK(ds::musicalTimeBeats(17) == Approx(6.0));
  CHECK(ds::musicalTimeBeats(18) == Approx(8.0));   // 2 bars
  CHECK(ds::musicalTimeBeats(20) == Approx(16.0));  // 4 bars
  CHECK((ds::musicalTimeBeats(-3) == ds::musicalTimeBeats(0) && ds::musicalTimeBeats(99) == 16.0));
}

TEST_CASE("Instrument <effects>: each type on the main bus in order; filters, peak and gain in the bus's units") {
  const auto in = load("types", kAllTypes);
  REQUIRE(in.ok);
  const auto& fx = in.buses.effects;
  REQUIRE(fx.size() == 13);
  CHECK((fx[0].type == BusEffectType::Filter && fx[0].filterType == spindle::FilterType::Lpf2p));
  CHECK((value(fx[0], BusParam::FilterCutoff) == 1000.0f && value(fx[0], BusParam::FilterResonance) == Approx(6.0206f)));
  CHECK((fx[1].filterType == spindle::FilterType::Hpf2p && value(fx[1], BusParam::FilterCutoff) == 22000.0f));
  CHECK(value(fx[1], BusParam::FilterResonance) == Approx(20.0 * std::log10(0.7)));
  CHECK((fx[2].filterType == spindle::FilterType::Lpf1p && value(fx[2], BusParam::FilterCutoff) == 500.0f));
  CHECK(fx[3].filterType == spindle::FilterType::Brf2p);
  CHECK(value(fx[3], BusParam::FilterResonance) == Approx(20.0 * std::log10(4.0)));
  CHECK((fx[4].type == BusEffectType::Eq && value(fx[4], BusParam::EqFreq) == 800.0f));
  CHECK(value(fx[4], BusParam::EqBw) == Approx(1.0f).epsilon(0.01));  // Q sqrt 2: one octave
  CHECK(value(fx[4], BusParam::EqGain) == Approx(6.0206f));
  CHECK((value(fx[5], BusParam::Gain) == -6.0f && value(fx[6], BusParam::Gain) == Approx(-6.0206f)));
  CHECK(countDiagnostics(in, "not played") == 0);
}

TEST_CASE("Instrument <effects>: delay, reverb and DecentSampler's own effects in the bus's units") {
  const auto in = load("types", kAllTypes);
  const auto& fx = in.buses.effects;
  REQUIRE(fx.size() == 13);
  CHECK((value(fx[7], BusParam::DelayTimeL) == Approx(0.24f) && value(fx[7], BusParam::DelayTimeR) == Approx(0.26f)));
  CHECK((value(fx[7], BusParam::DelayFeedback) == 50.0f && value(fx[7], BusParam::DelayWet) == 80.0f));
  CHECK((value(fx[7], BusParam::DelayDry) == 100.0f && value(fx[7], BusParam::DelayLevelC) == 0.0f));
  CHECK((value(fx[8], BusParam::ReverbSize) == 40.0f && value(fx[8], BusParam::ReverbDamp) == 60.0f));
  CHECK((value(fx[8], BusParam::ReverbWet) == 30.0f && value(fx[8], BusParam::ReverbDry) == 100.0f));
  CHECK((fx[9].type == BusEffectType::Chorus && value(fx[9], BusParam::Mix) == 0.4f));
  CHECK((value(fx[9], BusParam::ModDepth) == 0.2f && value(fx[9], BusParam::ModRate) == 0.2f));  // the guide's defaults
  CHECK((fx[10].type == BusEffectType::ModPhaser && value(fx[10], BusParam::CentreFreq) == 800.0f));
  CHECK((value(fx[10], BusParam::ModFeedback) == -0.5f && value(fx[10], BusParam::Mix) == 0.5f));
  CHECK((fx[11].type == BusEffectType::WaveFolder && value(fx[11], BusParam::Drive) == 4.0f));
  CHECK((fx[12].type == BusEffectType::WaveShaper && value(fx[12], BusParam::OutputLevel) == 0.1f));
  CHECK(countDiagnostics(in, "not played") == 0);
}

TEST_CASE("Instrument <effects> Spindle does not play are reported once each, with the reason; a musical_time delay plays") {
  const auto in = load("unplayed", R"(<effects>
    <effect type="pitch_shift"/><effect type="pitch_shift"/><effect type="convolution" irFile="x.wav"/>
    <effect type="stereo_simulator"/><effect type="delay" delayTimeFormat="musical_time" delayTime="10" stereoOffset="0.01"/>
    <effect type="wave_shaper"/><effect type="gain" level="-3"/>
  </effects>)");
  REQUIRE(in.ok);
  REQUIRE(in.buses.effects.size() == 3);  // the synced delay, the wave shaper and the gain
  CHECK(in.buses.effects[0].type == BusEffectType::Delay);
  CHECK((value(in.buses.effects[0], BusParam::DelayBeatsL) == 1.0f && value(in.buses.effects[0], BusParam::DelayBeatsR) == 1.0f));
  CHECK(countDiagnostics(in, "<effect type=\"pitch_shift\"> not played (ignored): Spindle has no pitch shifter") == 1);
  CHECK(countDiagnostics(in, "(irFile=\"x.wav\") not found") == 1);  // the convolution's response
  CHECK(countDiagnostics(in, "<effect type=\"stereo_simulator\"> not played") == 1);
  CHECK(countDiagnostics(in, "delay stereoOffset not played (ignored) with delayTimeFormat=\"musical_time\"") == 1);
  CHECK(countDiagnostics(in, "wave_shaper highQuality not played") == 1);
}

TEST_CASE("Group <effects>: filters as the regions' filter 1 and 2, peak as an EQ band, gain in the volume") {
  const fs::path dir = fs::temp_directory_path() / "spindle-dsfx-tests";
  fs::create_directories(dir);
  std::ofstream(dir / "group.dspreset") << R"(<DecentSampler><groups>
    <group><sample path="a.wav" loNote="60" hiNote="60"/><effects>
      <effect type="lowpass" frequency="2000" resonance="2"/><effect type="hipass" frequency="100"/>
      <effect type="bandpass"/><effect type="peak" frequency="900" gain="0.5"/><effect type="gain" level="-6"/>
      <effect type="chorus"/></effects></group>
    <group><sample path="b.wav" loNote="61" hiNote="61"/></group></groups></DecentSampler>)";
  const auto in = ds::loadPreset(dir / "group.dspreset");
  REQUIRE(in.regions.size() == 2);
  const Region& r = in.regions[0];
  CHECK((r.filType == spindle::FilterType::Lpf2p && r.cutoff == 2000.0f));
  CHECK(r.resonance == Approx(20.0 * std::log10(2.0 * std::sqrt(2.0))));  // the voice filter's Q is 2
  CHECK((r.fil2Type == spindle::FilterType::Hpf2p && r.cutoff2 == 100.0f));
  CHECK((r.eq[0].freq == 900.0f && r.eq[0].gain == Approx(-6.0206f)));
  CHECK(r.volume - in.regions[1].volume == Approx(-6.0f));
  CHECK((in.regions[1].cutoff < 0.0f && in.regions[1].eq[0].gain == 0.0f));
  CHECK(countDiagnostics(in, "group <effect type=\"bandpass\"> not played (ignored): a group plays at most two filters") == 1);
  CHECK(countDiagnostics(in, "group <effect type=\"chorus\"> not played") == 1);
}

TEST_CASE("Group wave_folder and wave_shaper: the regions' shaper stages in order, a third and highQuality reported") {
  const fs::path dir = fs::temp_directory_path() / "spindle-dsfx-tests";
  fs::create_directories(dir);
  std::ofstream(dir / "group-shapers.dspreset") << R"(<DecentSampler><groups>
    <group><sample path="a.wav" loNote="60" hiNote="60"/><effects>
      <effect type="wave_shaper" drive="3" driveBoost="0.5" outputLevel="0.8"/><effect type="lowpass" frequency="900"/>
      <effect type="wave_folder" threshold="0.4"/><effect type="wave_folder" drive="9"/></effects></group>
    <group><sample path="b.wav" loNote="61" hiNote="61"/><effects><effect type="wave_shaper" highQuality="false"/>
      </effects></group></groups></DecentSampler>)";
  const auto in = ds::loadPreset(dir / "group-shapers.dspreset");
  REQUIRE(in.regions.size() == 2);
  const Region& r = in.regions[0];
  REQUIRE(r.shaperCount == 2);
  CHECK(r.shapers[0].type == spindle::ShaperType::Shaper);
  CHECK((r.shapers[0].drive == 3.0f && r.shapers[0].driveBoost == 0.5f && r.shapers[0].outputLevel == 0.8f));
  CHECK(r.shapers[1].type == spindle::ShaperType::Folder);
  CHECK((r.shapers[1].drive == 1.0f && r.shapers[1].threshold == 0.4f));  // the guide's default drive
  CHECK(r.cutoff == 900.0f);
  const Region& other = in.regions[1];
  REQUIRE(other.shaperCount == 1);  // the guide's defaults: drive 1, driveBoost 1, outputLevel 0.1
  CHECK((other.shapers[0].drive == 1.0f && other.shapers[0].driveBoost == 1.0f && other.shapers[0].outputLevel == 0.1f));
  CHECK(countDiagnostics(in, "group <effect type=\"wave_folder\"> not played (ignored): a group plays at most two") == 1);
  CHECK(countDiagnostics(in, "group wave_shaper highQuality not played") == 1);
  CHECK(countDiagnostics(in, "not played") == 2);
}

TEST_CASE("Knobs bound to a group's wave_folder and wave_shaper: curves on the shaper stages' targets, a lowpass's drive reported") {
  const fs::path dir = fs::temp_directory_path() / "spindle-dsfx-tests";
  fs::create_directories(dir);
  std::ofstream(dir / "group-shaper-knob.dspreset") << R"(<DecentSampler><ui><tab>
    <labeled-knob label="Drive" minValue="0" maxValue="1" value="0">
      <binding type="effect" level="group" groupIndex="0" effectIndex="1" parameter="FX_DRIVE"
               translation="linear" translationOutputMin="1" translationOutputMax="5"/>
      <binding type="effect" level="group" groupIndex="0" effectIndex="0" parameter="FX_DRIVE"/></labeled-knob>
    <labeled-knob label="Level" minValue="0" maxValue="1" value="1">
      <binding type="effect" level="group" groupIndex="0" effectIndex="2" parameter="FX_OUTPUT_LEVEL"/></labeled-knob>
    </tab></ui><groups>
    <group><sample path="a.wav" loNote="60" hiNote="60"/><effects><effect type="lowpass" frequency="1000"/>
      <effect type="wave_folder" threshold="0.5"/><effect type="wave_shaper" outputLevel="0.3"/></effects></group>
    </groups></DecentSampler>)";
  const auto in = ds::loadPreset(dir / "group-shaper-knob.dspreset");
  REQUIRE(in.regions.size() == 1);
  const Region& r = in.regions[0];
  REQUIRE(r.shaperCount == 2);
  CHECK(r.shapers[0].drive == Approx(1.0));        // the knob's initial 0 translated
  CHECK(r.shapers[1].outputLevel == Approx(1.0));  // the level knob's initial 1
  const auto curveOf = [&](spindle::ModTarget t) -> const spindle::instrument::Curve* {
    for (int i = 0; i < r.ccModulationCount; ++i)
      if (r.ccModulations[static_cast<size_t>(i)].target == t)
        for (const auto& c : in.curves)
          if (c.index == r.ccModulations[static_cast<size_t>(i)].curve) return &c;
    return nullptr;
  };
  const auto* drive = curveOf(spindle::ModTarget::Shaper1Drive);
  const auto* level = curveOf(spindle::ModTarget::Shaper2OutputLevel);
  REQUIRE(drive);
  REQUIRE(level);
  CHECK(drive->points[0] == Approx(0.0).margin(1e-6));
  CHECK(drive->points[127] == Approx(4.0));  // drive 5 at CC 127: 4 above the base
  CHECK(level->points[0] == Approx(-1.0));   // outputLevel 0 at CC 0
  CHECK(level->points[127] == Approx(0.0).margin(1e-6));
  CHECK(curveOf(spindle::ModTarget::Shaper1Threshold) == nullptr);
  CHECK(countDiagnostics(in, "binding to FX_DRIVE of group effect 0 not played (ignored): the group's lowpass effect has no such parameter") == 1);
}

TEST_CASE("A knob bound to an instrument effect: its CC moves the bus parameter through the translated curve") {
  const auto in = load("bound", R"(<ui><tab>
    <labeled-knob label="Tone" minValue="0" maxValue="1" value="1">
      <binding type="effect" level="instrument" position="0" parameter="FX_FILTER_FREQUENCY" translation="linear"
               translationOutputMin="200" translationOutputMax="8200"/></labeled-knob>
    <labeled-knob label="Room" minValue="0" maxValue="1" value="0.5">
      <binding type="effect" level="instrument" tags="verb" parameter="FX_REVERB_ROOM_SIZE"/></labeled-knob>
    <button value="0"><state name="On"><binding type="effect" level="instrument" effectIndex="1" parameter="ENABLED"
      translation="fixed_value" translationValue="true"/></state>
      <state name="Off"><binding type="effect" level="instrument" effectIndex="1" parameter="ENABLED"
      translation="fixed_value" translationValue="false"/></state></button>
    <labeled-knob label="Bad" minValue="0" maxValue="1"><binding type="effect" level="instrument" position="0"
      parameter="FX_DRIVE"/></labeled-knob>
  </tab></ui><effects><effect type="lowpass" frequency="1000"/><effect type="reverb" tags="verb" roomSize="0.7"/></effects>)");
  REQUIRE(in.buses.effects.size() == 2);
  const auto& lp = in.buses.effects[0];
  REQUIRE(lp.curves.size() == 1);
  const auto& knob = lp.curves[0];
  CHECK((knob.param == BusParam::FilterCutoff && knob.cc == 102 && knob.points.size() == 128));
  // cutoff = 1000 + curve: 200 Hz at CC 0, 8200 at CC 127, linear between.
  CHECK(value(lp, BusParam::FilterCutoff) + knob.points[0] == Approx(200.0f));
  CHECK(value(lp, BusParam::FilterCutoff) + knob.points[127] == Approx(8200.0f));
  CHECK(value(lp, BusParam::FilterCutoff) + knob.points[64] == Approx(200.0f + 8000.0f * 64 / 127));
  const auto& verb = in.buses.effects[1];
  REQUIRE(verb.curves.size() == 2);
  CHECK((verb.curves[0].param == BusParam::ReverbSize && verb.curves[0].cc == 103));
  CHECK(70.0f + verb.curves[0].points[127] == Approx(100.0f));
  CHECK(70.0f + verb.curves[0].points[0] == Approx(0.0f));
  const auto& bypass = verb.curves[1];
  CHECK((bypass.param == BusParam::Bypass && bypass.cc == 104));
  CHECK((bypass.points[0] == 0.0f && bypass.points[63] == 0.0f && bypass.points[64] == 1.0f && bypass.points[127] == 1.0f));
  CHECK(countDiagnostics(in, "bindings to FX_DRIVE of a lowpass effect not played") == 1);
  REQUIRE(in.controllerDefaults.size() == 4);
  CHECK(in.controllerDefaults[0].value == Approx(1.0f));  // Tone starts at 1: 8200 Hz
}

TEST_CASE("A global LFO bound to an instrument effect: its wave through the translation, per behaviour") {
  const auto in = load("lfo", R"(<effects><effect type="lowpass" frequency="1000"/></effects>
    <modulators>
      <lfo shape="sine" frequency="2" modAmount="0.5" delayTime="0.1" scope="global">
        <binding type="effect" level="instrument" position="0" parameter="FX_FILTER_FREQUENCY" translation="linear"
                 translationOutputMin="500" translationOutputMax="4500"/></lfo>
      <lfo shape="square" frequency="1"><binding type="effect" level="instrument" position="0"
           parameter="FX_FILTER_RESONANCE" modBehavior="add"/></lfo>
      <lfo shape="sine" scope="voice"><binding type="effect" level="instrument" position="0"
           parameter="FX_FILTER_FREQUENCY"/></lfo><envelope/>
    </modulators>)");
  REQUIRE(in.buses.effects.size() == 1);
  const auto& lfos = in.buses.effects[0].lfos;
  REQUIRE(lfos.size() == 2);
  CHECK((lfos[0].param == BusParam::FilterCutoff && lfos[0].wave == 0 && lfos[0].hz == 2.0f && lfos[0].delay == 0.1f));
  CHECK(lfos[0].behavior == spindle::BusParamLfo::Behavior::Set);
  REQUIRE(lfos[0].curve.size() == 128);
  CHECK((lfos[0].curve[0] == Approx(500.0f) && lfos[0].curve[127] == Approx(2500.0f)));  // modAmount 0.5
  CHECK((lfos[1].param == BusParam::FilterResonance && lfos[1].wave == 1));
  CHECK(lfos[1].behavior == spindle::BusParamLfo::Behavior::Add);
  CHECK(countDiagnostics(in, "<modulators> bindings of voice modulators (<lfo>) to instrument effects are not played") == 1);
  CHECK(countDiagnostics(in, "<envelope>") == 0);  // no bindings: nothing to play or report
}

TEST_CASE("The fixture presets' effects (lowpass, chorus, reverb; group lowpass and gain) play, none reported",
          "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "decentsampler");
  const fs::path seq = fixtures / "decentsampler/example-006-working-with-note-sequences";
  for (const fs::path& file : {seq / "Example 6A - Triggering Sequences Using MIDI.dspreset",
                               seq / "Example 6B - Triggering Sequences Using UI.dspreset",
                               fixtures / "decentsampler/schema-boilerplate.dspreset"}) {
    INFO(file);
    const auto in = ds::loadPreset(file);
    REQUIRE(in.ok);
    REQUIRE(in.buses.effects.size() == 3);
    CHECK(in.buses.effects[0].type == BusEffectType::Filter);
    CHECK(in.buses.effects[1].type == BusEffectType::Chorus);
    CHECK(in.buses.effects[2].type == BusEffectType::Reverb);
    CHECK(countDiagnostics(in, "effect") == 0);
  }
}

TEST_CASE("A knob bound to a group's lowpass: the regions' cutoff follows its CC in cents, others reported") {
  const fs::path dir = fs::temp_directory_path() / "spindle-dsfx-tests";
  fs::create_directories(dir);
  std::ofstream(dir / "group-knob.dspreset") << R"(<DecentSampler><ui><tab>
    <labeled-knob label="Cutoff" minValue="0" maxValue="1" value="0.5">
      <binding type="effect" level="group" groupIndex="0" effectIndex="0" parameter="FX_FILTER_FREQUENCY"
               translation="linear" translationOutputMin="250" translationOutputMax="4000"/>
      <binding type="effect" level="group" groupIndex="0" effectIndex="1" parameter="FX_DRIVE"/></labeled-knob>
    </tab></ui><groups>
    <group><sample path="a.wav" loNote="60" hiNote="60"/><effects><effect type="lowpass" frequency="1000"/></effects></group>
    <group><sample path="b.wav" loNote="61" hiNote="61"/></group></groups></DecentSampler>)";
  const auto in = ds::loadPreset(dir / "group-knob.dspreset");
  REQUIRE(in.regions.size() == 2);
  const Region& r = in.regions[0];
  CHECK(r.cutoff == Approx(2125.0));  // the knob's initial 0.5: 250 + 0.5 (4000 - 250)
  const double cutoff = static_cast<double>(r.cutoff);
  REQUIRE(r.ccModulationCount == 1);
  const spindle::CcModulation& m = r.ccModulations[0];
  CHECK((m.target == spindle::ModTarget::Cutoff && m.cc == 102));
  const spindle::instrument::Curve* curve = nullptr;
  for (const auto& c : in.curves)
    if (c.index == m.curve) curve = &c;
  REQUIRE(curve);
  CHECK(curve->points[0] == Approx(1200.0 * std::log2(250.0 / cutoff)).margin(0.01));
  CHECK(curve->points[127] == Approx(1200.0 * std::log2(4000.0 / cutoff)).margin(0.01));
  CHECK(in.regions[1].ccModulationCount == 0);  // the other group has no effect
  CHECK(countDiagnostics(in, "binding to FX_DRIVE of group effect 1 not played (ignored): the group has no such effect") == 1);
}

}  // namespace decent_sampler_effect_tests
