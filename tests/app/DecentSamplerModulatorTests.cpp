// DecentSampler <modulators> played per voice: presets written here over white noise, a
// DC level or a sine, loaded through the app Loader and rendered by the engine at 48 kHz.
// A filter's movement is read as the spectral centroid of successive 20 ms windows, a
// level as the mean of a DC sample, a pitch as zero crossings.
#include <algorithm>
#include <cmath>
#include <complex>
#include <fstream>
#include <iterator>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "NoiseSample.h"
#include "RenderSupport.h"
#include "Spectrum.h"
#include "session/Loader.h"
#include "catch.h"
#include "engine/core/EngineTestSupport.h"
#include "stream/TestAudioFiles.h"

namespace decent_sampler_modulator_tests {

using spindle::test::noteOff;
using spindle::test::noteOn;
using spindle::test::Renderer;
using spindle::test::scratchDir;
using spindle::test::TimedEvent;

namespace {

constexpr int kRate = 48000;
constexpr size_t kWindow = 960;  // 20 ms

struct Player {
  spindle::session::Loader loader;
  std::unique_ptr<spindle::engine::Program> program;

  Player(const std::filesystem::path& dir, const std::string& xml, const std::string& name = "p") {
    std::ofstream(dir / (name + ".dspreset")) << xml;
    auto result = loader.load(dir / (name + ".dspreset"));
    REQUIRE(result.program);
    program = std::move(result.program);
  }
  std::unique_ptr<Renderer> play(const std::vector<TimedEvent>& events, int64_t frames) const {
    auto r = std::make_unique<Renderer>(spindle::engine::EngineConfig{}, 256);
    r->setProgram(program.get(), 0);
    r->run(events, frames);
    return r;
  }
};

// A preset of one group playing `sample` on every key, with `effects` and `modulators`.
std::string preset(const std::string& sample, const std::string& effects, const std::string& modulators) {
  return std::string("<DecentSampler><groups ampVelTrack=\"0\" release=\"0.01\"><group>") + effects + "<sample path=\"" + sample +
         "\" rootNote=\"60\"/></group></groups><modulators>" + modulators + "</modulators></DecentSampler>";
}

const std::string kLowpass500 = R"(<effects><effect type="lowpass" frequency="500" resonance="0.7"/></effects>)";

// Centroid (Hz) of each successive 20 ms window of the left channel, over 2048-frame
// Hann windows centred on it.
std::vector<double> centroids(const std::vector<float>& x) {
  constexpr size_t kN = 2048;
  std::vector<double> out;
  for (size_t at = 0; at + kN <= x.size(); at += kWindow) {
    std::vector<std::complex<double>> v(kN);
    for (size_t i = 0; i < kN; ++i)
      v[i] = (0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(i) / kN)) * static_cast<double>(x[at + i]);
    spindle::test::fft(v);
    double weighted = 0.0, total = 0.0;
    for (size_t k = 1; k < kN / 2; ++k) {
      weighted += std::norm(v[k]) * static_cast<double>(k) * kRate / kN;
      total += std::norm(v[k]);
    }
    out.push_back(total > 0.0 ? weighted / total : 0.0);
  }
  return out;
}

// The mean period (s) of a series sampled every `step` seconds, from its upward
// crossings of its mean over [from, to) seconds (interpolated within a step).
double period(const std::vector<double>& s, double step, double from, double to) {
  const auto a = static_cast<size_t>(from / step), b = std::min(s.size(), static_cast<size_t>(to / step));
  double mean = 0.0;
  for (size_t i = a; i < b; ++i) mean += s[i] / static_cast<double>(b - a);
  std::vector<double> ups;
  for (size_t i = a + 1; i < b; ++i)
    if (s[i - 1] < mean && s[i] >= mean) ups.push_back(step * (static_cast<double>(i - 1) + (mean - s[i - 1]) / (s[i] - s[i - 1])));
  REQUIRE(ups.size() >= 2);
  return (ups.back() - ups.front()) / static_cast<double>(ups.size() - 1);
}

double meanOf(const std::vector<double>& s, size_t a, size_t b) {
  double sum = 0.0;
  for (size_t i = a; i < b; ++i) sum += s[i];
  return sum / static_cast<double>(b - a);
}

// Mean of the left channel over [from, to) seconds.
double level(const Renderer& r, double from, double to) {
  double sum = 0.0;
  const auto a = static_cast<size_t>(from * kRate), b = static_cast<size_t>(to * kRate);
  for (size_t i = a; i < b; ++i) sum += static_cast<double>(r.left[i]);
  return sum / static_cast<double>(b - a);
}

// The same noise through an SFZ region's lowpass (lpf_2p, resonance 0 dB: DecentSampler's
// Q 0.7) at `hz`, held 2 s: what a group lowpass at hz gives.
std::vector<float> sfzLowpass(const std::filesystem::path& dir, int hz) {
  const std::string name = "lowpass" + std::to_string(hz);
  std::ofstream(dir / (name + ".sfz")) << std::string("<region> sample=noise.wav pitch_keycenter=60 amp_veltrack=0 ") +
                                              "fil_type=lpf_2p resonance=0 cutoff=" + std::to_string(hz) + "\n";
  spindle::session::Loader loader;
  auto result = loader.load(dir / (name + ".sfz"));
  REQUIRE(result.program);
  auto r = std::make_unique<Renderer>(spindle::engine::EngineConfig{}, 256);
  r->setProgram(result.program.get(), 0);
  r->run({noteOn(0, 60)}, 2 * kRate);
  return r->left;
}

const std::string lfoOnFilter(const std::string& delay) {
  return R"(<lfo shape="sine" frequency="2" scope="voice" delayTime=")" + delay + R"(">
    <binding type="effect" level="group" groupIndex="0" effectIndex="0" parameter="FX_FILTER_FREQUENCY"
      modBehavior="add" translation="linear" translationOutputMin="0" translationOutputMax="4000"/></lfo>)";
}

}  // namespace

TEST_CASE("A voice LFO on a group lowpass moves its cutoff at 2 Hz: the centroid's period is 0.5 s") {
  const auto dir = scratchDir("ds-mod-lfo");
  spindle::test::writeNoise(dir / "noise.wav", kRate);
  Player p(dir, preset("noise.wav", kLowpass500, lfoOnFilter("0")));
  const auto r = p.play({noteOn(0, 60)}, kRate * 5 / 2);
  const std::vector<double> c = centroids(r->left);
  CHECK(period(c, 0.02, 0.1, 2.4) == Approx(0.5).epsilon(0.05));
  // Swinging from the lowpass at 500 Hz to 4500 Hz: the brightest windows are far above the darkest.
  const auto [lo, hi] = std::minmax_element(c.begin() + 5, c.begin() + 100);
  CHECK(*hi > 3.0 * *lo);
}

TEST_CASE("A voice LFO with delayTime 0.5 leaves the filter still for 0.5 s, then moves it at 2 Hz") {
  const auto dir = scratchDir("ds-mod-lfo-delay");
  spindle::test::writeNoise(dir / "noise.wav", kRate);
  Player p(dir, preset("noise.wav", kLowpass500, lfoOnFilter("0.5")));
  const auto r = p.play({noteOn(0, 60)}, kRate * 5 / 2);
  const std::vector<double> c = centroids(r->left);
  // The windows wholly before 0.5 s (the 2048-frame window reaches 43 ms ahead) stay at
  // the unmodulated lowpass at 500 Hz (the noise's own spread: +-40 % per window).
  const double still = meanOf(c, 2, 22);
  CHECK(still == Approx(meanOf(centroids(sfzLowpass(dir, 500)), 2, 22)).epsilon(0.1));
  for (size_t i = 2; i < 22; ++i) {
    CHECK(c[i] < 1.4 * still);
    CHECK(c[i] > 0.6 * still);
  }
  CHECK(*std::max_element(c.begin() + 27, c.begin() + 60) > 3.0 * still);
  CHECK(period(c, 0.02, 0.6, 2.4) == Approx(0.5).epsilon(0.05));
}

TEST_CASE("A voice envelope on a group lowpass: the centroid rises over the attack, settles at the sustain's cutoff") {
  const auto dir = scratchDir("ds-mod-env");
  spindle::test::writeNoise(dir / "noise.wav", kRate);
  const std::string env = R"(<envelope attack="0.5" decay="0.3" sustain="0.5" release="0.1" attackCurve="0" decayCurve="0" scope="voice">
    <binding type="effect" level="group" groupIndex="0" effectIndex="0" parameter="FX_FILTER_FREQUENCY"
      modBehavior="add" translation="linear" translationOutputMin="0" translationOutputMax="4000"/></envelope>)";
  Player p(dir, preset("noise.wav", kLowpass500, env));
  const auto r = p.play({noteOn(0, 60)}, kRate * 2);
  const std::vector<double> c = centroids(r->left);
  // Rising through the attack (0..0.5 s: windows 0..23), highest near its end.
  CHECK(meanOf(c, 2, 6) < meanOf(c, 10, 14));
  CHECK(meanOf(c, 10, 14) < meanOf(c, 20, 24));
  const auto peak = std::max_element(c.begin(), c.begin() + 60) - c.begin();
  CHECK(peak >= 21);
  CHECK(peak <= 28);
  // Sustain 0.5: the cutoff at 500 + 2000 Hz, as a static lowpass there gives.
  const std::vector<double> s = centroids(sfzLowpass(dir, 2500));
  CHECK(meanOf(c, 50, 90) == Approx(meanOf(s, 50, 90)).epsilon(0.03));
  CHECK(meanOf(c, 50, 90) < 0.8 * c[static_cast<size_t>(peak)]);
}

TEST_CASE("A voice LFO on AMP_VOLUME: the level swings at the LFO's rate by the translation's depth") {
  const auto dir = scratchDir("ds-mod-amp");
  spindle::test::writeWav16(dir / "dc.wav", 1, std::vector<int16_t>(3 * kRate, 8192), kRate);
  const std::string lfo = R"(<lfo shape="sine" frequency="4" scope="voice">
    <binding type="amp" level="group" groupIndex="0" parameter="AMP_VOLUME" modBehavior="set"
      translation="linear" translationOutputMin="0.25" translationOutputMax="1"/></lfo>)";
  Player p(dir, preset("dc.wav", "", lfo));
  const auto r = p.play({noteOn(0, 60)}, 2 * kRate);
  std::vector<double> means;
  for (size_t at = 0; at + kWindow <= r->left.size(); at += kWindow / 8)  // 2.5 ms steps
    means.push_back(level(*r, static_cast<double>(at) / kRate, static_cast<double>(at + kWindow / 8) / kRate));
  CHECK(period(means, 0.0025, 0.1, 1.9) == Approx(0.25).epsilon(0.02));
  const auto [lo, hi] = std::minmax_element(means.begin() + 40, means.end());
  // 0.25 .. 1 of the group's volume: 12.04 dB.
  CHECK(20.0 * std::log10(*hi / *lo) == Approx(20.0 * std::log10(4.0)).margin(0.2));
}

TEST_CASE("A voice LFO on GROUP_TUNING swings the pitch by the set cents") {
  const auto dir = scratchDir("ds-mod-pitch");
  std::vector<int16_t> sine(3 * kRate);
  for (size_t i = 0; i < sine.size(); ++i)
    sine[i] = static_cast<int16_t>(std::lround(16000.0 * std::sin(2.0 * std::numbers::pi * 1000.0 * static_cast<double>(i) / kRate)));
  spindle::test::writeWav16(dir / "sine.wav", 1, sine, kRate);
  const std::string lfo = R"(<lfo shape="sine" frequency="1" scope="voice">
    <binding type="amp" level="group" groupIndex="0" parameter="GROUP_TUNING" modBehavior="add"
      translation="linear" translationOutputMin="0" translationOutputMax="2"/></lfo>)";
  Player p(dir, preset("sine.wav", "", lfo));
  const auto r = p.play({noteOn(0, 60)}, 2 * kRate);
  // Frequency from upward zero crossings in 20 ms windows.
  std::vector<double> hz;
  for (size_t at = 0; at + kWindow <= r->left.size(); at += kWindow) {
    std::vector<double> ups;
    for (size_t i = at + 1; i < at + kWindow; ++i)
      if (r->left[i - 1] < 0.0f && r->left[i] >= 0.0f)
        ups.push_back(static_cast<double>(i - 1) + static_cast<double>(r->left[i - 1] / (r->left[i - 1] - r->left[i])));
    hz.push_back(ups.size() > 1 ? kRate * static_cast<double>(ups.size() - 1) / (ups.back() - ups.front()) : 0.0);
  }
  const auto [lo, hi] = std::minmax_element(hz.begin() + 1, hz.end());
  // 0 .. 2 semitones over 1000 Hz: 1000 .. 1122.5 Hz, the 20 ms windows smoothing the ends a little.
  CHECK(*lo == Approx(1000.0).margin(3.0));
  CHECK(*hi == Approx(1000.0 * std::exp2(2.0 / 12.0)).margin(3.0));
}

TEST_CASE("A note_on <random> gives each note its own level, the same every render, other levels with another seed") {
  const auto dir = scratchDir("ds-mod-random");
  spindle::test::writeWav16(dir / "dc.wav", 1, std::vector<int16_t>(2 * kRate, 8192), kRate);
  const auto random = [](int seed) {
    return R"(<random mode="note_on" scope="voice" seed=")" + std::to_string(seed) + R"(">
      <binding type="amp" level="group" groupIndex="0" parameter="AMP_VOLUME" modBehavior="set"
        translation="linear" translationOutputMin="0" translationOutputMax="1"/></random>)";
  };
  const std::vector<TimedEvent> notes = {noteOn(0, 60), noteOff(2 * kRate / 5, 60), noteOn(kRate / 2, 60)};
  const double full = level(*Player(dir, preset("dc.wav", "", ""), "full").play(notes, kRate), 0.1, 0.3);
  Player one(dir, preset("dc.wav", "", random(7)), "one");
  const auto a = one.play(notes, kRate), b = one.play(notes, kRate);
  CHECK(a->left == b->left);  // the same seed: the same frames
  const double first = level(*a, 0.1, 0.3) / full, second = level(*a, 0.6, 0.8) / full;
  CHECK(first >= 0.0);
  CHECK(first <= 1.0);
  CHECK(second >= 0.0);
  CHECK(second <= 1.0);
  CHECK(std::abs(first - second) > 0.01);  // each note draws its own value
  // Held for the note: the level within a note does not move.
  CHECK(level(*a, 0.05, 0.1) == Approx(level(*a, 0.3, 0.35)).epsilon(1e-4));
  Player other(dir, preset("dc.wav", "", random(8)), "other");
  const auto c = other.play(notes, kRate);
  CHECK(std::abs(level(*c, 0.1, 0.3) / full - first) > 1e-3);
}

TEST_CASE("midiVelocity on a group lowpass: a soft note is darker than a loud one, by the cutoffs the translation gives") {
  const auto dir = scratchDir("ds-mod-velocity");
  spindle::test::writeNoise(dir / "noise.wav", kRate);
  const std::string velocity = R"(<midiVelocity scope="voice">
    <binding type="effect" level="group" groupIndex="0" effectIndex="0" parameter="FX_FILTER_FREQUENCY"
      modBehavior="add" translation="linear" translationOutputMin="0" translationOutputMax="5000"/></midiVelocity>)";
  Player p(dir, preset("noise.wav", kLowpass500, velocity));
  const std::vector<double> soft = centroids(p.play({noteOn(0, 60, 32)}, kRate)->left);
  const std::vector<double> loud = centroids(p.play({noteOn(0, 60, 127)}, kRate)->left);
  const auto still = [&](int hz) { return meanOf(centroids(sfzLowpass(dir, hz)), 5, 40); };
  // 500 + 5000 * 32 / 127 = 1760 Hz, and 500 + 5000 = 5500 Hz.
  CHECK(meanOf(soft, 5, 40) == Approx(still(1760)).epsilon(0.03));
  CHECK(meanOf(loud, 5, 40) == Approx(still(5500)).epsilon(0.03));
  CHECK(meanOf(soft, 5, 40) < 0.6 * meanOf(loud, 5, 40));
}

TEST_CASE("A global LFO on AMP_VOLUME: a note started later moves with one started earlier, a voice LFO does not") {
  const auto dir = scratchDir("ds-mod-global");
  spindle::test::writeWav16(dir / "dc.wav", 1, std::vector<int16_t>(2 * kRate, 8192), kRate);
  const auto lfo = [](const std::string& scope) {
    return R"(<lfo shape="sine" frequency="4" scope=")" + scope + R"(">
      <binding type="amp" level="group" groupIndex="0" parameter="AMP_VOLUME" modBehavior="set"
        translation="linear" translationOutputMin="0.25" translationOutputMax="1"/></lfo>)";
  };
  Player global(dir, preset("dc.wav", "", lfo("global")), "global");
  Player voice(dir, preset("dc.wav", "", lfo("voice")), "voice");
  // Started at 0 and at 0.3 s (1.2 cycles later): compared over 0.4 .. 1.2 s in 5 ms steps.
  const auto early = global.play({noteOn(0, 60)}, kRate * 3 / 2), late = global.play({noteOn(kRate * 3 / 10, 60)}, kRate * 3 / 2);
  const auto earlyVoice = voice.play({noteOn(0, 60)}, kRate * 3 / 2);
  const auto lateVoice = voice.play({noteOn(kRate * 3 / 10, 60)}, kRate * 3 / 2);
  double globalGap = 0.0, voiceGap = 0.0, swing = 0.0;
  for (double t = 0.4; t < 1.2; t += 0.005) {
    const double a = level(*early, t, t + 0.005);
    globalGap = std::max(globalGap, std::abs(level(*late, t, t + 0.005) - a));
    voiceGap = std::max(voiceGap, std::abs(level(*lateVoice, t, t + 0.005) - level(*earlyVoice, t, t + 0.005)));
    swing = std::max(swing, a);
  }
  CHECK(swing > 0.05);
  CHECK(globalGap < 1e-3 * swing);  // one LFO for both
  CHECK(voiceGap > 0.3 * swing);    // each voice its own, 0.2 cycles apart
}

TEST_CASE("spindle-render renders a preset with voice and global modulators the same twice, byte for byte") {
  const auto dir = scratchDir("ds-mod-render");
  spindle::test::writeNoise(dir / "noise.wav", kRate);
  const std::string mods = lfoOnFilter("0.1") + R"(<lfo shape="square" frequency="6"><binding type="amp" level="group"
      groupIndex="0" parameter="PAN" modBehavior="add" translationOutputMin="-50" translationOutputMax="50"/></lfo>
    <random mode="periodic" frequency="9" seed="3" scope="voice"><binding type="amp" level="group" groupIndex="0"
      parameter="GROUP_TUNING" modBehavior="add" translationOutputMax="1"/></random>)";
  std::ofstream(dir / "p.dspreset") << preset("noise.wav", kLowpass500, mods);
  const std::vector<spindle::test::SongEvent> song = {{0, {0x90, 60, 100}}, {240, {0x90, 64, 80}}, {960, {0x80, 60, 0}},
                                                      {1200, {0x80, 64, 0}}};
  const auto a = spindle::test::renderSong(SPINDLE_RENDER_EXE, dir / "p.dspreset", song, dir, "a");
  const auto b = spindle::test::renderSong(SPINDLE_RENDER_EXE, dir / "p.dspreset", song, dir, "b");
  REQUIRE(a.exitCode == 0);
  REQUIRE(b.exitCode == 0);
  REQUIRE(a.left.size() > static_cast<size_t>(kRate));
  CHECK(spindle::test::energy(a.left) > 0.0);
  const auto bytes = [](const std::filesystem::path& f) {
    std::ifstream in(f, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  CHECK(bytes(dir / "a.wav") == bytes(dir / "b.wav"));
}

}  // namespace decent_sampler_modulator_tests
