// DecentSampler controls and loop crossfades played: presets written here over constant
// (DC) samples, loaded through the app Loader and rendered by the engine at 48 kHz, so a
// level is a count of voices times their gains. A control is moved as the player moves
// it, by its CC on the part.
#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "RenderSupport.h"
#include "session/Loader.h"
#include "catch.h"
#include "core/Controllers.h"
#include "engine/core/EngineTestSupport.h"
#include "stream/TestAudioFiles.h"

namespace decent_sampler_playback_tests {

using spindle::test::cc;
using spindle::test::noteOff;
using spindle::test::noteOn;
using spindle::test::Renderer;
using spindle::test::scratchDir;
using spindle::test::TimedEvent;

namespace {

constexpr int kRate = 48000;

void writeDc(const std::filesystem::path& file, int16_t value, int frames = 2 * kRate) {
  spindle::test::writeWav16(file, 1, std::vector<int16_t>(static_cast<size_t>(frames), value), kRate);
}

struct Player {
  spindle::session::Loader loader;
  std::unique_ptr<spindle::engine::Program> program;

  Player(const std::filesystem::path& dir, const std::string& xml) {
    std::ofstream(dir / "p.dspreset") << xml;
    auto result = loader.load(dir / "p.dspreset");
    REQUIRE(result.program);
    REQUIRE(result.report.samplesLoaded == result.report.samples);
    program = std::move(result.program);
  }
  std::unique_ptr<Renderer> play(const std::vector<TimedEvent>& events, int64_t frames) const {
    auto r = std::make_unique<Renderer>(spindle::engine::EngineConfig{}, 256);
    r->setProgram(program.get(), 0);
    r->run(events, frames);
    return r;
  }
};

// Mean of the left channel over [from, to) seconds.
double mean(const Renderer& r, double from, double to) {
  double sum = 0.0;
  const auto a = static_cast<size_t>(from * kRate), b = static_cast<size_t>(to * kRate);
  for (size_t i = a; i < b; ++i) sum += static_cast<double>(r.left[i]);
  return sum / static_cast<double>(b - a);
}

int stepCc(int k, int n) { return spindle::controllers::stepValue(k, n); }

// Example 1 of the fixtures (a Mono/Poly button on a tag's polyphony), over DC samples,
// with a Room button on a second tag's volume and enable.
const char* kButtons = R"(<DecentSampler><ui><tab>
  <button value="0"><state name="Mono"><binding type="general" level="tag" tags="all" parameter="POLYPHONY" translation="fixed_value" translationValue="1"/></state>
    <state name="Poly"><binding type="general" level="tag" tags="all" parameter="POLYPHONY" translation="fixed_value" translationValue="6"/></state></button>
  <button value="0" parameterName="Room"><state name="Full"/>
    <state name="Half"><binding type="amp" level="tag" identifier="room" parameter="AMP_VOLUME" translation="fixed_value" translationValue="0.5"/></state>
    <state name="Off"><binding type="amp" level="tag" identifier="room" parameter="TAG_ENABLED" translation="fixed_value" translationValue="false"/></state></button>
  </tab></ui>
  <groups release="0.01" ampVelTrack="0"><group tags="all"><sample path="dc.wav" loNote="40" hiNote="70" rootNote="60"/></group>
    <group tags="room"><sample path="room.wav" loNote="80" hiNote="80" rootNote="80"/></group></groups>
  <tags><tag name="all" polyphony="1"/></tags></DecentSampler>)";

}  // namespace

TEST_CASE("A DecentSampler polyphony button: Mono keeps one voice of the tag, Poly lets two sound") {
  const auto dir = scratchDir("ds-poly");
  writeDc(dir / "dc.wav", 8192);
  writeDc(dir / "room.wav", 8192);
  Player p(dir, kButtons);
  const std::vector<TimedEvent> notes = {noteOn(0, 60), noteOn(kRate / 2, 64)};
  const auto mono = p.play(notes, kRate);
  auto polyEvents = notes;
  polyEvents.insert(polyEvents.begin(), cc(0, 102, stepCc(1, 2)));
  const auto poly = p.play(polyEvents, kRate);
  const double one = mean(*mono, 0.25, 0.45);
  CHECK(one > 0.05);
  CHECK(mean(*poly, 0.25, 0.45) == Approx(one).epsilon(1e-3));
  CHECK(mean(*mono, 0.75, 0.95) == Approx(one).epsilon(1e-3));      // the second note took the first's place
  CHECK(mean(*poly, 0.75, 0.95) == Approx(2.0 * one).epsilon(1e-3));  // both sound
}

TEST_CASE("A DecentSampler tag button moves a held note's volume and gates new notes") {
  const auto dir = scratchDir("ds-room");
  writeDc(dir / "dc.wav", 8192);
  writeDc(dir / "room.wav", 8192);
  Player p(dir, kButtons);
  const auto r = p.play({noteOn(0, 80), cc(kRate / 4, 103, stepCc(1, 3)), cc(kRate / 2, 103, stepCc(2, 3)),
                         noteOn(kRate / 2 + 4800, 80), cc(3 * kRate / 4, 103, stepCc(0, 3)), noteOn(3 * kRate / 4 + 4800, 80)},
                        kRate);
  const double full = mean(*r, 0.1, 0.24);
  CHECK(full > 0.05);
  // Half: -6.02 dB on the note already sounding, after the 5 ms smoothing.
  CHECK(20.0 * std::log10(mean(*r, 0.26, 0.49) / full) == Approx(20.0 * std::log10(0.5)).margin(0.01));
  // Off: a held note keeps sounding (DecentSampler's enable gates new notes), at the
  // volume the preset starts with (this state sets none); the new note at 0.6 s finds
  // the tag off and does not start.
  CHECK(mean(*r, 0.62, 0.74) == Approx(full).epsilon(1e-3));
  // Full again: the held note back at full, and the note at 0.85 s adds one more.
  CHECK(mean(*r, 0.76, 0.84) == Approx(full).epsilon(1e-3));
  CHECK(mean(*r, 0.87, 0.99) == Approx(2.0 * full).epsilon(1e-3));
}

TEST_CASE("A DecentSampler loopCrossfade in frames smooths the loop's seam") {
  const auto dir = scratchDir("ds-xfade");
  // A ramp: the loop end (4000) is far above its start (1000), a jump of 0.37 at the seam.
  std::vector<int16_t> ramp;
  for (int i = 0; i < kRate; ++i) ramp.push_back(static_cast<int16_t>(i * 3));
  spindle::test::writeWav16(dir / "ramp.wav", 1, ramp, kRate);
  const auto preset = [](int frames) {
    return "<DecentSampler><groups ampVelTrack=\"0\"><group><sample path=\"ramp.wav\" rootNote=\"60\" loopEnabled=\"true\" "
           "loopStart=\"1000\" loopEnd=\"4000\" loopCrossfade=\"" + std::to_string(frames) + "\"/></group></groups></DecentSampler>";
  };
  Player plainPreset(dir, preset(0));
  const auto plain = plainPreset.play({noteOn(0, 60)}, 20000);
  Player fadedPreset(dir, preset(480));
  const auto faded = fadedPreset.play({noteOn(0, 60)}, 20000);
  const float step = spindle::test::maxJump(plain->left, 100, 2900);  // the ramp's own slope
  const float plainSeam = spindle::test::maxJump(plain->left, 3000, 20000);
  const float fadedSeam = spindle::test::maxJump(faded->left, 3000, 20000);
  CHECK(step > 0.0f);
  CHECK(plainSeam > 1000.0f * step);
  // The raised-cosine blend falls the 3000 steps between loop end and start over 480
  // frames: its steepest frame is 3000 * pi / (2 * 480) - 1 = 8.8 steps (9.8 - the ramp's own).
  CHECK(fadedSeam > 7.0f * step);
  CHECK(fadedSeam < 10.0f * step);
}

TEST_CASE("A DecentSampler preset with a stray closing tag before </DecentSampler> loads and sounds as without it") {
  const auto dir = scratchDir("ds-stray");
  writeDc(dir / "dc.wav", 8192);
  const std::string body = "<DecentSampler><groups ampVelTrack=\"0\"><group><sample path=\"dc.wav\" loNote=\"60\" "
                           "hiNote=\"60\" rootNote=\"60\"/></group></groups>\n";
  const Player stray(dir, body + "</midi>\n</DecentSampler>\n"), clean(dir, body + "</DecentSampler>\n");
  const auto r = stray.play({noteOn(0, 60)}, kRate / 2), reference = clean.play({noteOn(0, 60)}, kRate / 2);
  CHECK(mean(*r, 0.1, 0.4) > 0.1);
  CHECK(r->left == reference->left);
}

}  // namespace decent_sampler_playback_tests
