// Reverb and Chorus against figures measured from FluidSynth 2.3 at its defaults.
//
// How FluidSynth was measured (once, by hand): a SoundFont of one 20 ms white-noise
// sample (key 60, release 1 ms), a MIDI file setting CC91=127 (or CC93=127) and playing
// one note, rendered by `fluidsynth -ni -g 1.0 -r 48000 -O float -T wav -F out.wav
// -o synth.reverb.active=1 -o synth.chorus.active=1`, and again with CC91=CC93=0; the
// difference is the effect's return. Its input is the voice times the send,
// 200 * 127/128 = 19.84 %. Reverb: T30 of the left+right tail 0.963 s (room size 0.2;
// 0.68, 1.67 and 3.78 s at room sizes 0, 0.5 and 0.8); per side 0.43 and 0.41 times the
// energy sent in, left/right correlation 0.61; at damping 0.5 and 1, T30 0.806 and
// 0.707 s, per side 0.321 and 0.117 times the energy sent in. A one-frame click through
// the same send: the reverb's first echo 2621 frames after the dry click. Chorus: per side 22.7 and 22.8 times
// the energy sent in, left/right correlation -0.94. The chorus's tap delays follow the
// shape of FluidSynth 2.3's chorus (Chorus.h).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>
#include <utility>
#include <vector>

#include "EffectMeasure.h"
#include "catch.h"
#include "engine/effects/Chorus.h"
#include "engine/effects/Reverb.h"

namespace reverb_tests {

using namespace spindle;
using engine::Chorus;
using engine::Reverb;
using engine::ReverbSettings;

namespace {

double correlation(const test::EffectResponse& r) {
  double lr = 0.0;
  for (size_t i = 0; i < r.left.size(); ++i) lr += static_cast<double>(r.left[i]) * static_cast<double>(r.right[i]);
  return lr / std::sqrt(test::energy(r.left) * test::energy(r.right));
}

// T30 of the left + right response to noiseBurst(); NaN unless the response is finite.
double t30Of(const ReverbSettings& settings) {
  Reverb reverb(test::kEffectRate, settings);
  const test::EffectResponse r = test::runEffect(reverb, test::noiseBurst(48000 * 8));
  std::vector<float> sum(r.left.size());
  for (size_t i = 0; i < sum.size(); ++i) sum[i] = r.left[i] + r.right[i];
  return std::isfinite(test::energy(sum)) ? test::t30(sum, 960) : std::nan("");
}

// The wet energy per side over the energy sent in, for noiseBurst().
double wetGain(const ReverbSettings& settings) {
  Reverb reverb(test::kEffectRate, settings);
  const std::vector<float> in = test::noiseBurst(48000 * 4);
  const test::EffectResponse r = test::runEffect(reverb, in);
  return (test::energy(r.left) + test::energy(r.right)) / 2.0 / test::energy(in);
}

}  // namespace

TEST_CASE("Reverb: T30 at FluidSynth's defaults within 10 % of FluidSynth's 0.963 s", "[dsp][reverb]") {
  const double t = t30Of({});
  INFO("T30 " << t << " s");
  CHECK(std::fabs(t - 0.963) <= 0.1 * 0.963);
}

TEST_CASE("Reverb: the room size moves T30 as FluidSynth's does, within 20 %", "[dsp][reverb]") {
  for (const auto& [room, fluid] : {std::pair{0.0f, 0.68}, {0.5f, 1.67}, {0.8f, 3.78}}) {
    ReverbSettings s;
    s.roomSize = room;
    const double t = t30Of(s);
    INFO("room size " << room << ": T30 " << t << " s, FluidSynth " << fluid << " s");
    CHECK(std::fabs(t - fluid) <= 0.2 * fluid);
  }
}

TEST_CASE("Reverb: wet energy and stereo image as FluidSynth's, within 1 dB and 0.1", "[dsp][reverb]") {
  Reverb reverb(test::kEffectRate, {});
  const test::EffectResponse r = test::runEffect(reverb, test::noiseBurst(48000 * 4));
  CHECK(std::fabs(10.0 * std::log10(wetGain({}) / 0.42)) <= 1.0);
  CHECK(std::fabs(correlation(r) - 0.61) <= 0.1);
}

TEST_CASE("Reverb: damping as FluidSynth's: T30 within 20 %, wet energy within 1 dB", "[dsp][reverb]") {
  for (const auto& [damping, fluidT30, fluidGain] : {std::tuple{0.5f, 0.806, 0.321}, {1.0f, 0.707, 0.117}}) {
    ReverbSettings s;
    s.damping = damping;
    const double t = t30Of(s), gain = wetGain(s);
    INFO("damping " << damping << ": T30 " << t << " s, wet energy " << gain);
    CHECK(std::fabs(t - fluidT30) <= 0.2 * fluidT30);
    CHECK(std::fabs(10.0 * std::log10(gain / fluidGain)) <= 1.0);
  }
}

TEST_CASE("Reverb: the first echo of a click comes as late as FluidSynth's, within 1 ms", "[dsp][reverb]") {
  Reverb reverb(test::kEffectRate, {});
  std::vector<float> click(9600, 0.0f);
  click[0] = 1.0f;
  const test::EffectResponse r = test::runEffect(reverb, click);
  size_t first = 0;
  while (first < click.size() && r.left[first] == 0.0f && r.right[first] == 0.0f) ++first;
  INFO("first echo at frame " << first);
  CHECK(std::abs(static_cast<double>(first) - 2621.0) <= 48.0);
}

TEST_CASE("Reverb: clear() silences the tail", "[dsp][reverb]") {
  Reverb reverb(test::kEffectRate, {});
  test::runEffect(reverb, test::noiseBurst(4800));
  reverb.clear();
  const test::EffectResponse after = test::runEffect(reverb, std::vector<float>(4800, 0.0f));
  CHECK(test::energy(after.left) + test::energy(after.right) == 0.0);
}

TEST_CASE("Chorus: energy and stereo image as FluidSynth's, within 1 dB and 0.1", "[dsp][chorus]") {
  Chorus chorus(test::kEffectRate, {});
  const std::vector<float> in = test::noiseBurst(48000);
  const test::EffectResponse r = test::runEffect(chorus, in);
  const double gain = (test::energy(r.left) + test::energy(r.right)) / 2.0 / test::energy(in);
  INFO("gain " << gain << ", correlation " << correlation(r));
  CHECK(std::fabs(10.0 * std::log10(gain / 22.75)) <= 1.0);
  CHECK(std::fabs(correlation(r) - (-0.94)) <= 0.1);
}

TEST_CASE("Chorus: a click comes back at FluidSynth's tap delays, 1 frame up to the depth", "[dsp][chorus]") {
  // At the defaults (3 voices, 0.3 Hz, 8 ms at 48 kHz: scale 192 frames) a fresh
  // chorus's voice k reads 1 + 192 (1 - sin(2 pi k / 3 + w t)) frames back, so a click
  // at frame 0 comes back at the frames t where that delay is t: 191.6, 26.7 and 360.7.
  // Voice 0 is on side A, voice 1 on side B, voice 2 on both (over 3 voices the same
  // side x 11/6, the other x -3/2), so the left return holds level x 11/6 near 191.6,
  // level x -3/2 near 26.7 and level x 1/3 near 360.7, each spread over a few frames by
  // its all-pass, and nothing elsewhere.
  Chorus chorus(test::kEffectRate, {});
  std::vector<float> in(1000, 0.0f);
  in[0] = 1.0f;
  const test::EffectResponse r = test::runEffect(chorus, in, 1000);
  const auto sum = [&](size_t from, size_t to) {
    double total = 0.0;
    for (size_t i = from; i < to; ++i) total += static_cast<double>(r.left[i]);
    return total;
  };
  CHECK(sum(22, 32) == Approx(2.0 * -1.5).epsilon(0.05));
  CHECK(sum(187, 197) == Approx(2.0 * 11.0 / 6.0).epsilon(0.05));
  CHECK(sum(356, 366) == Approx(2.0 / 3.0).epsilon(0.05));
  CHECK(std::fabs(sum(0, 22)) + std::fabs(sum(32, 187)) + std::fabs(sum(197, 356)) + std::fabs(sum(366, 1000)) < 0.05);
}

TEST_CASE("Chorus: frames it skips turn its sweeps as frames of silence would", "[dsp][chorus]") {
  Chorus ran(test::kEffectRate, {}), skipped(test::kEffectRate, {});
  test::runEffect(ran, std::vector<float>(48000 + 77, 0.0f));
  skipped.skip(48000 + 77);
  const std::vector<float> in = test::noiseBurst(9600);
  const test::EffectResponse a = test::runEffect(ran, in), b = test::runEffect(skipped, in);
  float worst = 0.0f;
  for (size_t i = 0; i < a.left.size(); ++i) worst = std::max({worst, std::fabs(a.left[i] - b.left[i]), std::fabs(a.right[i] - b.right[i])});
  CHECK(worst < 1e-3f);
  Chorus fresh(test::kEffectRate, {});  // and the sweeps did move: a fresh chorus differs
  const test::EffectResponse c = test::runEffect(fresh, in);
  double diff = 0.0;
  for (size_t i = 0; i < c.left.size(); ++i) diff += std::fabs(static_cast<double>(c.left[i] - a.left[i]));
  CHECK(diff > 1.0);
}

TEST_CASE("Chorus: a sine comes out with its pitch swept by the moving delay", "[dsp][chorus]") {
  Chorus chorus(test::kEffectRate, {});
  std::vector<float> in(48000 * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(std::sin(2.0 * std::numbers::pi * 1000.0 * static_cast<double>(i) / 48000.0));
  const test::EffectResponse r = test::runEffect(chorus, in);
  // Three taps of one sine beat against each other as their delays move: the level
  // of 50 ms windows swings by more than 6 dB over the sweep's 3.3 s period.
  double lo = 1e30, hi = 0.0;
  for (size_t w = 48000; w + 2400 <= r.left.size(); w += 2400) {
    double e = 0.0;
    for (size_t i = w; i < w + 2400; ++i) e += static_cast<double>(r.left[i]) * static_cast<double>(r.left[i]);
    lo = std::min(lo, e), hi = std::max(hi, e);
  }
  CHECK(10.0 * std::log10(hi / lo) > 6.0);
}

namespace {

// The largest frame-to-frame step of `x` in [from, to).
float maxStep(const std::vector<float>& x, size_t from, size_t to) {
  float step = 0.0f;
  for (size_t i = std::max<size_t>(from, 1); i < to && i < x.size(); ++i) step = std::max(step, std::fabs(x[i] - x[i - 1]));
  return step;
}

// A 200 Hz sine through `effect` for 1 s, then `change` (a new level of 0), then 0.1 s
// more: the output's largest step while the level falls, against the largest before it,
// and the last block's peak.
template <class Effect, class Settings>
std::tuple<float, float, float> levelCut(Effect& effect, Settings cut) {
  constexpr int kBlock = 256;
  std::vector<float> in(static_cast<size_t>(test::kEffectRate * 1.1));
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0.5f * static_cast<float>(std::sin(2.0 * std::numbers::pi * 200.0 * static_cast<double>(i) / test::kEffectRate));
  std::vector<float> left(in.size(), 0.0f), right(in.size(), 0.0f);
  const size_t changeAt = static_cast<size_t>(test::kEffectRate) / kBlock * kBlock;
  for (size_t at = 0; at < in.size(); at += kBlock) {
    if (at == changeAt) effect.set(cut);
    const int n = static_cast<int>(std::min<size_t>(kBlock, in.size() - at));
    effect.process(in.data() + at, left.data() + at, right.data() + at, n);
  }
  float lastPeak = 0.0f;
  for (size_t i = in.size() - kBlock; i < in.size(); ++i) lastPeak = std::max(lastPeak, std::fabs(left[i]));
  return {maxStep(left, changeAt - 24000, changeAt), maxStep(left, changeAt, changeAt + 2 * kBlock), lastPeak};
}

}  // namespace

TEST_CASE("Reverb and Chorus: a level cut while they play glides over one block, no click", "[dsp][reverb][chorus]") {
  Reverb reverb(test::kEffectRate, {});
  ReverbSettings silent;
  silent.level = 0.0f;
  const auto [reverbBefore, reverbDuring, reverbAfter] = levelCut(reverb, silent);
  INFO("reverb: largest step " << reverbBefore << " before, " << reverbDuring << " while the level falls");
  CHECK(reverbBefore > 0.0f);
  CHECK(reverbDuring <= 1.5f * reverbBefore);
  CHECK(reverbAfter == 0.0f);
  Chorus chorus(test::kEffectRate, {});
  engine::ChorusSettings quiet;
  quiet.level = 0.0f;
  const auto [chorusBefore, chorusDuring, chorusAfter] = levelCut(chorus, quiet);
  INFO("chorus: largest step " << chorusBefore << " before, " << chorusDuring << " while the level falls");
  CHECK(chorusBefore > 0.0f);
  CHECK(chorusDuring <= 1.5f * chorusBefore);
  CHECK(chorusAfter == 0.0f);
}

TEST_CASE("Reverb: a room size set while it plays gives the new room's T30", "[dsp][reverb]") {
  ReverbSettings large;
  large.roomSize = 0.8f;
  Reverb reverb(test::kEffectRate, {});
  reverb.set(large);
  CHECK(reverb.decaySeconds() == Approx(Reverb(test::kEffectRate, large).decaySeconds()));
  const test::EffectResponse r = test::runEffect(reverb, test::noiseBurst(48000 * 8));
  std::vector<float> sum(r.left.size());
  for (size_t i = 0; i < sum.size(); ++i) sum[i] = r.left[i] + r.right[i];
  const double t = test::t30(sum, 960);
  INFO("T30 " << t << " s after set(room size 0.8); FluidSynth 3.78 s");
  CHECK(std::fabs(t - 3.78) <= 0.2 * 3.78);
}

}  // namespace reverb_tests
