// DecentSampler <modulators> on the audio thread inside an AudioThreadScope: a preset with
// voice LFOs (sine, square, saw, delayed), an envelope, note_on and periodic random, a
// velocity and two CC modulators moving group filter frequencies (the linear-Hz cutoff
// targets of both filters), volume, tuning and pan, on voices that also run the group's
// wave_folder and wave_shaper stages (their drive and level moved by a knob), while the
// CCs sweep and notes come and go. No allocation, no free, no lock.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "RtChecks.h"
#include "RtGuard.h"
#include "ScriptRun.h"
#include "catch.h"
#include "core/MidiEvent.h"
#include "dspreset/DecentSampler.h"
#include "engine/Engine.h"
#include "engine/parts/Program.h"

namespace decent_sampler_modulator_safety_tests {

using namespace spindle;

namespace {

constexpr double kRate = 48000.0;
constexpr int kDriveKnobCc = 102;  // the first CC the preset's controls take

const char* kPreset = R"(<DecentSampler><ui><tab><labeled-knob label="Drive" minValue="1" maxValue="12" value="6">
  <binding type="effect" level="group" groupIndex="0" effectIndex="2" parameter="FX_DRIVE"/>
  <binding type="effect" level="group" groupIndex="0" effectIndex="3" parameter="FX_OUTPUT_LEVEL"
    translation="linear" translationOutputMin="0.1" translationOutputMax="1"/></labeled-knob></tab></ui>
  <groups release="0.05"><group volume="0.8" groupTuning="0.5">
  <effects><effect type="lowpass" frequency="700" resonance="2"/><effect type="highpass" frequency="60"/>
    <effect type="wave_folder" drive="6" threshold="0.3"/><effect type="wave_shaper" drive="4" highQuality="false"/></effects>
  <sample path="noise.wav" rootNote="60"/></group></groups>
  <modulators>
    <lfo shape="sine" frequency="5" scope="voice"><binding type="effect" level="group" groupIndex="0" effectIndex="0"
      parameter="FX_FILTER_FREQUENCY" modBehavior="add" translationOutputMax="3000"/></lfo>
    <lfo shape="square" frequency="7" delayTime="0.05" scope="voice"><binding type="amp" level="group" groupIndex="0"
      parameter="AMP_VOLUME" modBehavior="multiply" translationOutputMin="0.5" translationOutputMax="1"/></lfo>
    <lfo shape="saw" frequency="3" scope="voice"><binding type="amp" level="group" groupIndex="0" parameter="PAN"
      modBehavior="set" translationOutputMin="-80" translationOutputMax="80"/></lfo>
    <envelope attack="0.02" decay="0.05" sustain="0.3" release="0.05" scope="voice"><binding type="effect" level="group"
      groupIndex="0" effectIndex="1" parameter="FX_FILTER_FREQUENCY" modBehavior="multiply" translationOutputMin="1" translationOutputMax="20"/></envelope>
    <random mode="note_on" seed="4" scope="voice"><binding type="amp" level="group" groupIndex="0" parameter="GROUP_TUNING"
      modBehavior="add" translationOutputMax="1"/></random>
    <random mode="periodic" frequency="30" scope="voice"><binding type="amp" level="group" groupIndex="0" parameter="AMP_VOLUME"
      modBehavior="set" translationOutputMin="0" translationOutputMax="1"/></random>
    <midiVelocity><binding type="effect" level="group" groupIndex="0" effectIndex="0" parameter="FX_FILTER_FREQUENCY"
      modBehavior="add" translationOutputMax="4000"/></midiVelocity>
    <midiCC number="1"><binding type="amp" level="group" groupIndex="0" parameter="GROUP_TUNING" modBehavior="add"
      translationOutputMax="2"/></midiCC>
    <midiCC number="11"><binding type="amp" level="instrument" parameter="AMP_VOLUME" modBehavior="multiply"
      translationOutputMin="0.2" translationOutputMax="1"/></midiCC>
  </modulators></DecentSampler>)";

engine::Program makeProgram(const SampleData& noise) {
  const auto dir = std::filesystem::temp_directory_path() / "spindle-rt-ds-modulators";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "p.dspreset") << kPreset;
  const instrument::Instrument in = dspreset::loadPreset(dir / "p.dspreset");
  std::filesystem::remove_all(dir);
  REQUIRE(in.ok);
  REQUIRE(in.regions.size() == 1);
  REQUIRE(in.regions[0].lfos.size() == 5);
  REQUIRE(in.regions[0].egs.size() == 1);
  REQUIRE(in.regions[0].shaperCount == 2);
  int stageCurves = 0;  // the knob's curves on the stages
  for (int i = 0; i < in.regions[0].ccModulationCount; ++i) {
    const ModTarget t = in.regions[0].ccModulations[static_cast<size_t>(i)].target;
    stageCurves += t == ModTarget::Shaper1Drive || t == ModTarget::Shaper2OutputLevel ? 1 : 0;
  }
  REQUIRE(stageCurves == 2);
  engine::Program p;
  p.samples.push_back(&noise);
  p.regions = in.regions;
  p.regions[0].sampleIndex = 0;
  for (const instrument::Curve& c : in.curves) p.curves.push_back({c.index, c.points});
  p.prepare();
  return p;
}

std::vector<std::vector<MidiEvent>> makeScript() {
  std::vector<std::vector<MidiEvent>> blocks;
  for (int b = 0; b < 120; ++b) {
    std::vector<MidiEvent> events;
    for (uint32_t f = 0; f < 256; f += 32) {
      const int v = static_cast<int>((f + static_cast<uint32_t>(b) * 13) % 128);
      events.push_back(test::event(f, midi::kControlChange, 1, v));
      events.push_back(test::event(f, midi::kControlChange, 11, 127 - v));
      events.push_back(test::event(f, midi::kControlChange, kDriveKnobCc, (v * 3) % 128));
    }
    if (b % 6 == 0)
      for (int key = 48; key < 72; key += 3) events.push_back(test::event(static_cast<uint32_t>(key), midi::kNoteOn, key, 20 + b % 100));
    if (b % 6 == 4)
      for (int key = 48; key < 72; key += 3) events.push_back(test::event(9, midi::kNoteOff, key, 0));
    blocks.push_back(events);
  }
  for (int i = 0; i < 20; ++i) blocks.emplace_back();  // every release runs out
  return blocks;
}

}  // namespace

TEST_CASE("Audio thread: DecentSampler voice modulators on group filters, volume, tuning and pan, with group "
          "wave_folder and wave_shaper stages, allocate nothing",
          "[rt][audio]") {
  INFO(test::rtGuardMode());
  uint32_t x = 99;
  const test::RamSample noise(48000, kRate, [&](int64_t) {
    x = x * 1664525u + 1013904223u;
    return static_cast<float>(x >> 8) / 16777216.0f - 0.5f;
  });
  const engine::Program program = makeProgram(noise.data);
  const test::ScriptRun run = test::runScript(program, makeScript(), {kRate, 256, 256, engine::Quality::Hermite, 1});
  CHECK(run.end.notesStarted == 20 * 8);
  CHECK(run.end.activeVoices == 0);
  CHECK(run.peak > 0.01f);
  CHECK(std::isfinite(run.peak));
  test::checkAudioThreadClean(run.counts);
}

}  // namespace decent_sampler_modulator_safety_tests
