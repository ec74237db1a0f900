// SFZ effect buses (<effect>, effect1..4), rendered by spindle-render: each effect type's
// level and spectral centroid relative to the dry render, against sfizz.
//
// The reference figures were measured with sfizz_render (sfizz 342cd99: `-s 48000 -q 2
// -p 256 -b 256`) on the same files: the noise sample below written as 16-bit WAV, key
// 60 at velocity 127 held 2 s, level (both channels, RMS) and centroid (Spectrum.h)
// over 0.5..1.5 s, each as the difference from sfizz's dry render (so its 7.37 dB
// lower master level cancels). sfizz's dry render: -22.30 dB, centroid 11941 Hz. The
// tolerance is 1 dB and 10 % of the centroid.
#include <fstream>

#include "NoiseSample.h"
#include "RenderSupport.h"
#include "Spectrum.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace bus_effect_render_tests {

using spindle::test::levelDb;
using spindle::test::renderSong;
using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr size_t kRate = 48000;
const std::string kRegion = "<region> sample=noise.wav amp_veltrack=0";

struct Measured {
  double levelDb = 0.0, centroidHz = 0.0;
};

// Key 60 held 2 s through `sfz`, measured over 0.5..1.5 s.
Measured measure(const std::filesystem::path& dir, const std::string& name, const std::string& sfz) {
  if (!std::filesystem::exists(dir / "noise.wav")) spindle::test::writeNoise(dir / "noise.wav", static_cast<int>(kRate));
  std::ofstream(dir / (name + ".sfz")) << sfz << "\n";
  const auto r = renderSong(kExe, dir / (name + ".sfz"), {{0, {0x90, 60, 127}}, {1920, {0x80, 60, 0}}}, dir, name);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return {levelDb(r, kRate / 2, kRate * 3 / 2), spindle::test::spectralCentroid(r.left, r.right, kRate / 2, kRate * 3 / 2, kRate)};
}

// The effect's level and centroid relative to the dry render, against sfizz's figures.
void checkAgainstSfizz(const std::string& name, const std::string& sfz, double sfizzDb, double sfizzCentroidHz) {
  const auto dir = scratchDir("bus-effects-" + name);
  const Measured dry = measure(dir, "dry", kRegion);
  const Measured wet = measure(dir, name, sfz);
  constexpr double kSfizzDryCentroid = 11941.0;
  const double ratio = wet.centroidHz / dry.centroidHz, sfizzRatio = sfizzCentroidHz / kSfizzDryCentroid;
  INFO(name << ": " << wet.levelDb - dry.levelDb << " dB (sfizz " << sfizzDb << "), centroid " << wet.centroidHz
            << " Hz, x" << ratio << " of dry (sfizz x" << sfizzRatio << ")");
  CHECK(dry.centroidHz == Approx(kSfizzDryCentroid).epsilon(0.02));
  CHECK(wet.levelDb - dry.levelDb == Approx(sfizzDb).margin(1.0));
  CHECK(ratio == Approx(sfizzRatio).epsilon(0.1));
}

}  // namespace

TEST_CASE("bus effect gain: -6 dB, spectrum unchanged", "[app][bus-effects]") {
  checkAgainstSfizz("gain", kRegion + " <effect> type=gain gain=-6", -6.00, 11941);
}

TEST_CASE("bus effect eq: peak, low and high shelf as sfizz", "[app][bus-effects]") {
  checkAgainstSfizz("eq-peak", kRegion + " <effect> type=eq eq_type=peak eq_freq=1000 eq_bw=1 eq_gain=12", 1.26, 9179);
  checkAgainstSfizz("eq-lshelf", kRegion + " <effect> type=eq eq_type=lshelf eq_freq=500 eq_bw=1 eq_gain=-12", 0.05,
                    11858);
  checkAgainstSfizz("eq-hshelf", kRegion + " <effect> type=eq eq_type=hshelf eq_freq=4000 eq_bw=1 eq_gain=-12",
                    -6.25, 4326);
}

TEST_CASE("bus effect filter: lpf_2p and a resonant hpf_2p as sfizz", "[app][bus-effects]") {
  checkAgainstSfizz("filter-lpf",
                    kRegion + " <effect> type=filter filter_type=lpf_2p filter_cutoff=1000 filter_resonance=0",
                    -11.87, 792);
  checkAgainstSfizz("filter-hpf",
                    kRegion + " <effect> type=filter filter_type=hpf_2p filter_cutoff=5000 filter_resonance=6", 1.18,
                    11403);
}

TEST_CASE("bus effect rectify: half-wave at 100, half of it at 50, as sfizz", "[app][bus-effects]") {
  checkAgainstSfizz("rectify", kRegion + " <effect> type=rectify rectify=100", -3.25, 10050);
  checkAgainstSfizz("rectify-half", kRegion + " <effect> type=rectify rectify=50", -2.09, 11627);
}

TEST_CASE("bus effect width: 0 sums a centred signal to mono at equal power (+3 dB), as sfizz",
          "[app][bus-effects]") {
  checkAgainstSfizz("width", kRegion + " <effect> type=width width=0", 3.01, 11941);
}

TEST_CASE("bus effect apan: a 1 Hz triangle moves the sides in opposite directions, as sfizz", "[app][bus-effects]") {
  const std::string apan = kRegion + " <effect> type=apan apan_freq=1 apan_wet=100 apan_dry=0 apan_depth=";
  checkAgainstSfizz("apan", apan + "100", 1.25, 11941);
  checkAgainstSfizz("apan-half", apan + "50", 0.35, 11941);
  // Each side over 0.1 s windows against the dry render: sfizz's left -18.75 dB around
  // 0.25 s (the triangle's top: the left side silent) and +5.58 dB around 0.75 s, the
  // right the other way round (-18.66, +5.56).
  const auto dir = scratchDir("bus-effects-apan-sides");
  std::ofstream(dir / "dry.sfz") << kRegion << "\n";
  std::ofstream(dir / "apan.sfz") << apan << "100\n";
  spindle::test::writeNoise(dir / "noise.wav", static_cast<int>(kRate));
  const std::vector<spindle::test::SongEvent> song = {{0, {0x90, 60, 127}}, {1920, {0x80, 60, 0}}};
  const auto dry = renderSong(kExe, dir / "dry.sfz", song, dir, "dry");
  const auto wet = renderSong(kExe, dir / "apan.sfz", song, dir, "apan");
  REQUIRE((dry.exitCode == 0 && wet.exitCode == 0));
  const auto side = [](const std::vector<float>& x, double from, double to) {
    return 10.0 * std::log10(spindle::test::energy(x, static_cast<size_t>(from * kRate), static_cast<size_t>(to * kRate)));
  };
  CHECK(side(wet.left, 0.2, 0.3) - side(dry.left, 0.2, 0.3) == Approx(-18.75).margin(1.0));
  CHECK(side(wet.left, 0.7, 0.8) - side(dry.left, 0.7, 0.8) == Approx(5.58).margin(1.0));
  CHECK(side(wet.right, 0.2, 0.3) - side(dry.right, 0.2, 0.3) == Approx(5.56).margin(1.0));
  CHECK(side(wet.right, 0.7, 0.8) - side(dry.right, 0.7, 0.8) == Approx(-18.66).margin(1.0));
}

TEST_CASE("effect buses: effect1=50 to fx1 at fx1tomain=100 adds half the voice; directtomain=0 removes the dry path",
          "[app][bus-effects]") {
  // Expected sums, and sfizz's figures: dry + 0.5 = +3.52 dB (sfizz +3.52); only the
  // fx bus, 0.5 = -6.02 dB (sfizz -6.02); main bus at -20 dB plus fx1 untouched: 0.1 +
  // 0.5 = -4.44 dB (sfizz -4.43: fx buses join after the main bus's effects).
  const std::string fx1 = kRegion + " effect1=50 <effect> bus=fx1 fx1tomain=100 type=gain gain=0";
  checkAgainstSfizz("sum", fx1, 20.0 * std::log10(1.5), 11941);
  checkAgainstSfizz("fx-only", fx1 + " <effect> type=gain gain=0 directtomain=0", 20.0 * std::log10(0.5), 11941);
  checkAgainstSfizz("main-gain", fx1 + " <effect> type=gain gain=-20", 20.0 * std::log10(0.6), 11941);
  // fx2 through a low pass at fx2tomain=50, no dry path: sfizz -17.89 dB, 792 Hz.
  checkAgainstSfizz("fx-filter",
                    kRegion + " effect2=100 <effect> bus=fx2 fx2tomain=50 type=filter filter_type=lpf_2p "
                              "filter_cutoff=1000 <effect> type=gain gain=0 directtomain=0",
                    -17.89, 792);
}

TEST_CASE("effect buses: effectN without a bus layout feeds nothing; fxNtomix joins the output like fxNtomain",
          "[app][bus-effects]") {
  const auto dir = scratchDir("bus-effects-routing");
  const Measured dry = measure(dir, "dry", kRegion);
  const Measured unrouted = measure(dir, "unrouted", kRegion + " effect1=50");
  const Measured mix = measure(dir, "mix", kRegion + " effect1=50 <effect> bus=fx1 fx1tomix=100 type=gain gain=0");
  CHECK(unrouted.levelDb - dry.levelDb == Approx(0.0).margin(0.01));
  CHECK(mix.levelDb - dry.levelDb == Approx(20.0 * std::log10(1.5)).margin(0.05));
}

TEST_CASE("bus effect controls: gain_onccN moves the gain from its event's frame, smoothed", "[app][bus-effects]") {
  const auto dir = scratchDir("bus-effects-oncc");
  if (!std::filesystem::exists(dir / "noise.wav")) spindle::test::writeNoise(dir / "noise.wav", static_cast<int>(kRate));
  std::ofstream(dir / "cc.sfz") << kRegion << " <effect> type=gain gain=0 gain_oncc20=-12\n";
  std::ofstream(dir / "plain.sfz") << kRegion << "\n";
  const std::vector<spindle::test::SongEvent> song = {{0, {0x90, 60, 127}}, {960, {0xB0, 20, 127}}, {1920, {0x80, 60, 0}}};
  const auto cc = renderSong(kExe, dir / "cc.sfz", song, dir, "cc");
  const auto plain = renderSong(kExe, dir / "plain.sfz", song, dir, "plain");
  REQUIRE(cc.exitCode == 0);
  REQUIRE(plain.exitCode == 0);
  // Before the event: unchanged to the frame; from 50 ms after it (5 smoothing time
  // constants): 12 dB down; in the first millisecond after it, still within 1 dB.
  CHECK(levelDb(cc, kRate / 2, kRate) - levelDb(plain, kRate / 2, kRate) == Approx(0.0).margin(1e-4));
  CHECK(levelDb(cc, kRate * 21 / 20, kRate * 19 / 10) - levelDb(plain, kRate * 21 / 20, kRate * 19 / 10) ==
        Approx(-12.0).margin(0.05));
  CHECK(levelDb(cc, kRate, kRate + kRate / 1000) - levelDb(plain, kRate, kRate + kRate / 1000) > -1.0);
}

}  // namespace bus_effect_render_tests
