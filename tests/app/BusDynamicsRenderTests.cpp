// The lofi, disto, comp, gate and limiter bus effects, rendered by spindle-render: each
// effect's level and spectral centroid relative to the dry render, against sfizz.
//
// The reference figures were measured with sfizz_render (sfizz 342cd99: `-s 48000 -q 2
// -p 256 -b 256`) on the same files: the noise sample of BusEffectRenderTests.cpp (3 s
// of uniform white noise in -0.5..0.5, LCG seed 12345, 16-bit) or a 1 kHz sine of
// amplitude 0.5, key 60 at velocity 127 held 2 s, level (both channels, RMS) and
// centroid (Spectrum.h) over 0.5..1.5 s, each as the difference from sfizz's dry
// render of the same sample (noise: -22.30 dB, 11941 Hz; sine: -20.54 dB, 1000 Hz).
// sfizz_render sometimes renders a file silent (-68 dB, about one run in four here):
// those runs were rendered again. The tolerance is 1 dB and 10 % of the centroid.
//
// sfizz applies comp_attack, comp_release, gate_attack and gate_release only when a
// file writes them (unwritten, its compressor and gate run with 0 s), so the files
// below write them.
#include <cmath>
#include <fstream>
#include <numbers>

#include "RenderSupport.h"
#include "Spectrum.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace bus_dynamics_render_tests {

using spindle::test::levelDb;
using spindle::test::renderSong;
using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr size_t kRate = 48000;
const std::string kNoise = "<region> sample=noise.wav amp_veltrack=0";
const std::string kSine = "<region> sample=sine.wav amp_veltrack=0";

void writeSamples(const std::filesystem::path& dir) {
  std::vector<int16_t> noise(kRate * 3), sine(kRate * 3);
  uint32_t x = 12345;
  for (size_t i = 0; i < noise.size(); ++i) {
    x = x * 1664525u + 1013904223u;
    const double v = static_cast<double>(x >> 8) / 16777216.0 - 0.5;
    noise[i] = static_cast<int16_t>(std::lround(v * 32767.0));
    const double s = 0.5 * std::sin(2.0 * std::numbers::pi * 1000.0 * static_cast<double>(i) / kRate);
    sine[i] = static_cast<int16_t>(std::lround(s * 32767.0));
  }
  spindle::test::writeWav16(dir / "noise.wav", 1, noise, kRate);
  spindle::test::writeWav16(dir / "sine.wav", 1, sine, kRate);
}

struct Measured {
  double levelDb = 0.0, centroidHz = 0.0;
};

const std::vector<spindle::test::SongEvent> kSong = {{0, {0x90, 60, 127}}, {1920, {0x80, 60, 0}}};

// Key 60 held 2 s through `sfz`, measured over `from`..`to` seconds.
Measured measure(const std::filesystem::path& dir, const std::string& name, const std::string& sfz,
                 const std::vector<spindle::test::SongEvent>& song = kSong, double from = 0.5, double to = 1.5) {
  if (!std::filesystem::exists(dir / "sine.wav")) writeSamples(dir);
  std::ofstream(dir / (name + ".sfz")) << sfz << "\n";
  const auto r = renderSong(kExe, dir / (name + ".sfz"), song, dir, name);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const auto a = static_cast<size_t>(from * kRate), b = static_cast<size_t>(to * kRate);
  return {levelDb(r, a, b), spindle::test::spectralCentroid(r.left, r.right, a, b, kRate)};
}

struct Sfizz {
  double db, centroidHz;
};

// `effect` after `region`: its level and centroid relative to the dry render, against
// sfizz's figures (relative to sfizz's dry render, whose centroid is `sfizzDryHz`).
void checkAgainstSfizz(const std::string& name, const std::string& region, const std::string& effect, Sfizz sfizz,
                       double sfizzDryHz) {
  const auto dir = scratchDir("bus-dynamics-" + name);
  const Measured dry = measure(dir, "dry", region);
  const Measured wet = measure(dir, name, region + " " + effect);
  const double ratio = wet.centroidHz / dry.centroidHz, sfizzRatio = sfizz.centroidHz / sfizzDryHz;
  INFO(name << ": " << wet.levelDb - dry.levelDb << " dB (sfizz " << sfizz.db << "), centroid " << wet.centroidHz
            << " Hz, x" << ratio << " of dry (sfizz x" << sfizzRatio << ")");
  CHECK(wet.levelDb - dry.levelDb == Approx(sfizz.db).margin(1.0));
  CHECK(ratio == Approx(sfizzRatio).epsilon(0.1));
}

void checkNoise(const std::string& name, const std::string& effect, Sfizz sfizz) {
  checkAgainstSfizz(name, kNoise, effect, sfizz, 11941.0);
}

}  // namespace

TEST_CASE("bus effect lofi: bit reduction and decimation darken noise as sfizz's", "[app][bus-effects]") {
  checkNoise("bitred", "<effect> type=lofi bitred=50", {-1.58, 9562});
  checkNoise("decim-10", "<effect> type=lofi decim=10", {-0.47, 5131});
  checkNoise("decim-50", "<effect> type=lofi decim=50", {0.03, 779});
  checkNoise("lofi-both", "<effect> type=lofi bitred=50 decim=50", {-1.64, 834});
}

TEST_CASE("bus effect disto: depth, wet, tone and stages as sfizz's", "[app][bus-effects]") {
  const std::string disto = "<effect> type=disto disto_dry=100 ";
  checkNoise("disto-50", disto + "disto_depth=50 disto_wet=100", {10.59, 10207});
  checkNoise("disto-100", disto + "disto_depth=100 disto_wet=100", {12.47, 10205});
  checkNoise("disto-wet", disto + "disto_depth=100 disto_wet=50", {6.70, 10280});
  checkNoise("disto-tone", disto + "disto_depth=100 disto_wet=100 disto_tone=50", {5.51, 1829});
  checkNoise("disto-stages",
             "<effect> type=disto disto_depth=100 disto_dry=30 disto_wet=100 disto_stages=3", {14.02, 10333});
  // Unwritten, disto_dry and disto_wet are 0: the bus passes through.
  checkNoise("disto-default", "<effect> type=disto disto_depth=100", {0.0, 11941});
}

TEST_CASE("bus effect comp: threshold, ratio, times and input gain as sfizz's", "[app][bus-effects]") {
  const std::string times = " comp_attack=0.005 comp_release=0.05";
  checkNoise("comp", "<effect> type=comp comp_threshold=-30 comp_ratio=4" + times, {-13.52, 11941});
  checkNoise("comp-gain", "<effect> type=comp comp_threshold=-30 comp_ratio=4 comp_gain=6" + times, {-12.02, 11941});
  checkNoise("comp-fast",
             "<effect> type=comp comp_threshold=-20 comp_ratio=10 comp_attack=0.001 comp_release=0.1", {-9.98, 11943});
  checkAgainstSfizz("comp-sine", kSine, "<effect> type=comp comp_threshold=-30 comp_ratio=4" + times, {-14.00, 1000},
                    1000.0);
}

TEST_CASE("bus effect gate: open above its threshold, closed below, as sfizz's", "[app][bus-effects]") {
  checkNoise("gate-open", "<effect> type=gate gate_threshold=-20 gate_attack=0.005 gate_release=0.05", {0.0, 11940});
  // Noise averaging -15 dB below a -14 dB threshold: sfizz renders silence.
  const auto dir = scratchDir("bus-dynamics-gate-closed");
  const Measured dry = measure(dir, "dry", kNoise);
  const Measured closed =
      measure(dir, "closed", kNoise + " <effect> type=gate gate_threshold=-14 gate_attack=0.005 gate_release=0.05");
  CHECK(closed.levelDb - dry.levelDb < -60.0);
}

TEST_CASE("bus effect limiter: holds a sine's peaks to full scale, as sfizz's", "[app][bus-effects]") {
  // The sine's peak on the bus is 0.354: +6 dB stays under 1, +12 dB is held to 1.
  checkAgainstSfizz("limiter-under", kSine, "<effect> type=gain gain=6 <effect> type=limiter", {6.00, 1000}, 1000.0);
  checkAgainstSfizz("limiter-over", kSine, "<effect> type=gain gain=12 <effect> type=limiter", {10.18, 1000}, 1000.0);
  checkAgainstSfizz("limiter-far", kSine, "<effect> type=gain gain=20 <effect> type=limiter", {10.18, 1000}, 1000.0);
}

TEST_CASE("bus effect controls: bitred_onccN, decim_onccN and gate_onccN move from the frame of their event",
          "[app][bus-effects]") {
  const auto dir = scratchDir("bus-dynamics-oncc");
  const std::vector<spindle::test::SongEvent> song = {
      {0, {0x90, 60, 127}}, {960, {0xB0, 20, 127}}, {960, {0xB0, 21, 127}}, {1920, {0x80, 60, 0}}};
  const Measured plain = measure(dir, "plain", kNoise, song, 0.1, 0.9);
  const Measured fixed = measure(dir, "fixed", kNoise + " <effect> type=lofi bitred=50", song, 1.1, 1.9);
  const std::string bitred = kNoise + " <effect> type=lofi bitred_oncc20=50";
  const Measured before = measure(dir, "before", bitred, song, 0.1, 0.9);
  const Measured after = measure(dir, "after", bitred, song, 1.1, 1.9);
  CHECK(before.centroidHz == Approx(plain.centroidHz).epsilon(0.001));
  CHECK(after.centroidHz == Approx(fixed.centroidHz).epsilon(0.01));
  CHECK(after.levelDb == Approx(fixed.levelDb).margin(0.05));
  // decim 50 from CC 20: a 1.6 kHz sample rate, the centroid under a tenth of the dry's
  // (the centroid of noise held this long moves by 10 % with the phase of the holds).
  const std::string decim = kNoise + " <effect> type=lofi decim_oncc20=50";
  CHECK(measure(dir, "decim-before", decim, song, 0.1, 0.9).centroidHz == Approx(plain.centroidHz).epsilon(0.001));
  CHECK(measure(dir, "decim-after", decim, song, 1.1, 1.9).centroidHz < 0.1 * plain.centroidHz);
  // gate_onccN: CC 21 at 127 closes an open gate (its gain falls with the 50 ms
  // release: silent by 0.5 s after the event).
  const std::string gate = kNoise + " <effect> type=gate gate_threshold=-40 gate_attack=0.005 gate_release=0.05 gate_oncc21=100";
  const Measured open = measure(dir, "gate-open", gate, song, 0.1, 0.9);
  const Measured shut = measure(dir, "gate-shut", gate, song, 1.5, 1.9);
  CHECK(open.levelDb - plain.levelDb == Approx(0.0).margin(0.2));
  CHECK(shut.levelDb - plain.levelDb < -60.0);
}

TEST_CASE("bus effect bypass_onccN: a controller blends any effect back toward its input", "[app][bus-effects]") {
  const auto dir = scratchDir("bus-dynamics-bypass");
  const std::vector<spindle::test::SongEvent> song = {
      {0, {0x90, 60, 127}}, {960, {0xB0, 20, 127}}, {1920, {0x80, 60, 0}}};
  const Measured plain = measure(dir, "plain", kNoise, song, 0.1, 0.9);
  const std::string comp = kNoise + " <effect> type=comp comp_threshold=-30 comp_ratio=4 comp_attack=0.005 "
                                    "comp_release=0.05 bypass_oncc20=";
  // Before the controller the compressor plays (-13.4 dB); at CC 127 x 1 it is bypassed
  // (the bus passes through); x 0.5 is half of each. The compressor's output comes 63
  // frames after its input (its oversampling), so on white noise the two halves add as
  // uncorrelated signals: their powers add.
  const Measured on = measure(dir, "on", comp + "1", song, 0.1, 0.9);
  const Measured off = measure(dir, "off", comp + "1", song, 1.1, 1.9);
  const Measured half = measure(dir, "half", comp + "0.5", song, 1.1, 1.9);
  CHECK(on.levelDb - plain.levelDb == Approx(-13.4).margin(0.3));
  CHECK(off.levelDb - plain.levelDb == Approx(0.0).margin(0.05));
  const double compressed = std::pow(10.0, (on.levelDb - plain.levelDb) / 20.0);
  CHECK(half.levelDb - plain.levelDb == Approx(10.0 * std::log10(0.25 + 0.25 * compressed * compressed)).margin(0.3));
}

}  // namespace bus_dynamics_render_tests
