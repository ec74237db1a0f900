// SFZ bus effects with memory, rendered by spindle-render: the reverb (fverb) against
// sfizz, and the tails a render keeps after the last voice (a delay's echoes).
//
// The reverb's reference figures were measured with sfizz_render (sfizz 342cd99: `-s
// 48000 -q 2 -p 256 -b 256`) as tests/app/BusEffectRenderTests.cpp measures the other
// effects: the same noise sample, key 60 at velocity 127 held 2 s, level and centroid
// over 0.5..1.5 s as the difference from the dry render. Tolerance 1 dB and 10 %.
#include <fstream>

#include "NoiseSample.h"
#include "RenderSupport.h"
#include "Spectrum.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace bus_tail_render_tests {

using spindle::test::levelDb;
using spindle::test::renderSong;
using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr size_t kRate = 48000;
const std::string kRegion = "<region> sample=noise.wav amp_veltrack=0";

// Key 60 held `ticks` (960 a second) through `sfz`.
spindle::test::Rendered render(const std::filesystem::path& dir, const std::string& name, const std::string& sfz,
                               int ticks) {
  if (!std::filesystem::exists(dir / "noise.wav")) spindle::test::writeNoise(dir / "noise.wav", static_cast<int>(kRate));
  std::ofstream(dir / (name + ".sfz")) << sfz << "\n";
  auto r = renderSong(kExe, dir / (name + ".sfz"), {{0, {0x90, 60, 127}}, {static_cast<uint32_t>(ticks), {0x80, 60, 0}}}, dir, name);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return r;
}

void checkAgainstSfizz(const std::string& name, const std::string& effect, double sfizzDb, double sfizzRatio) {
  const auto dir = scratchDir("bus-tails-" + name);
  const auto dry = render(dir, "dry", kRegion, 1920), wet = render(dir, name, kRegion + " " + effect, 1920);
  const auto level = [](const spindle::test::Rendered& r) { return levelDb(r, kRate / 2, kRate * 3 / 2); };
  const auto centroid = [](const spindle::test::Rendered& r) {
    return spindle::test::spectralCentroid(r.left, r.right, kRate / 2, kRate * 3 / 2, kRate);
  };
  const double db = level(wet) - level(dry), ratio = centroid(wet) / centroid(dry);
  INFO(name << ": " << db << " dB (sfizz " << sfizzDb << "), centroid x" << ratio << " (sfizz x" << sfizzRatio << ")");
  CHECK(db == Approx(sfizzDb).margin(1.0));
  CHECK(ratio == Approx(sfizzRatio).epsilon(0.1));
}

double energy(const std::vector<float>& v, size_t from, size_t to) {
  double e = 0.0;
  for (size_t i = from; i < to && i < v.size(); ++i) e += static_cast<double>(v[i]) * static_cast<double>(v[i]);
  return e;
}

}  // namespace

TEST_CASE("bus reverb: fverb's level and brightness as sfizz's, by size and wet", "[app][bus-effects]") {
  const std::string wet = "<effect> type=fverb reverb_input=100 reverb_dry=0 reverb_wet=";
  checkAgainstSfizz("fverb-size50", wet + "100 reverb_size=50", -3.07, 0.754);
  checkAgainstSfizz("fverb-size90", wet + "100 reverb_size=90", -1.74, 0.718);
  checkAgainstSfizz("fverb-size10", wet + "100 reverb_size=10", -3.78, 0.774);
  checkAgainstSfizz("fverb-wet50", wet + "50 reverb_size=50", -9.09, 0.754);
}

TEST_CASE("bus tails: a render runs on until a delay's echoes have died", "[app][bus-effects]") {
  const auto dir = scratchDir("bus-tails-delay");
  // 0.1 s of noise; echoes every 0.5 s at 50 %, then 25 %, ... (feedback 50 %), left only.
  const auto r = render(dir, "delay",
                        kRegion + " ampeg_release=0 <effect> type=delay delay_timel=0.5 delay_levell=50 delay_levelr=0 "
                                  "delay_feedback=50 delay_dry=0",
                        96);
  const auto dry = render(dir, "dry", kRegion + " ampeg_release=0", 96);
  const double burst = energy(dry.left, 0, kRate / 10);
  REQUIRE(burst > 0.0);
  INFO("render " << r.left.size() << " frames; dry " << dry.left.size());
  for (int n = 1; n <= 4; ++n) {
    const auto at = static_cast<size_t>(n) * kRate / 2;
    const double db = 10.0 * std::log10(energy(r.left, at, at + kRate / 10) / burst);
    INFO("echo " << n << ": " << db << " dB");
    CHECK(db == Approx(-6.0206 * n).margin(0.05));
  }
  CHECK(energy(r.right, 0, r.right.size()) == 0.0);
  CHECK(energy(r.left, 0, kRate / 2 - 10) == 0.0);  // dry 0: nothing before the first echo
  // The echoes fall 6 dB a pass: below -120 dBFS after ~20 of them (10 s), and the render
  // stops there, a few seconds of tail past the capped 10 s at most.
  CHECK(r.left.size() > 8 * kRate);
  CHECK(r.left.size() < 14 * kRate);
  CHECK(dry.left.size() < kRate / 2);
}

}  // namespace bus_tail_render_tests
