// SFZ v2 oscillator playback (oscillator_*), on renders: start phase, unison copies,
// ring and frequency modulation measured as spectra, oscillator_quality, and a file
// played as a one-cycle table with oscillator=on.
#include <cmath>
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"
#include "core/Units.h"

namespace oscillator_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr int64_t kTable = 1024;

// The *sine generator's table: one cycle at the rate that plays middle C.
SfzProgram sineTable(const std::string& opcodes) {
  std::vector<float> cycle(static_cast<size_t>(kTable));
  for (int64_t i = 0; i < kTable; ++i)
    cycle[static_cast<size_t>(i)] = static_cast<float>(std::sin(2.0 * kPi * static_cast<double>(i) / kTable));
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous " + opcodes, cycle);
  REQUIRE(p.warnings.empty());
  p.sample->data.sampleRate = static_cast<double>(kTable) * noteToHz(60.0);
  p.sample->data.loopStart = 0;
  p.sample->data.loopEnd = kTable - 1;
  p.sample->data.oscillator = true;
  return p;
}

std::unique_ptr<Renderer> playKey(const SfzProgram& p, int key, int64_t frames) {
  return play(p, {cc(0, 7, 127), noteOn(0, key)}, frames);
}

// Amplitude of the component at `hz` in x[from, from + n): a Hann-windowed DFT at that
// one frequency, scaled so that a sine of amplitude A reads A.
double amplitudeAt(const std::vector<float>& x, size_t from, size_t n, double hz) {
  double re = 0.0, im = 0.0, windowSum = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double w = 0.5 - 0.5 * std::cos(2.0 * kPi * static_cast<double>(i) / static_cast<double>(n));
    const double phase = 2.0 * kPi * hz * static_cast<double>(i) / kRate;
    re += w * static_cast<double>(x[from + i]) * std::cos(phase);
    im += w * static_cast<double>(x[from + i]) * std::sin(phase);
    windowSum += w;
  }
  return 2.0 * std::hypot(re, im) / windowSum;
}

double cents(double hz, double c) { return hz * std::exp2(c / 1200.0); }

}  // namespace

TEST_CASE("oscillator_phase starts the table at that fraction of its cycle", "[engine][v2][oscillator]") {
  const double hz = noteToHz(60.0);
  for (const char* phase : {"0.25", "1.25"}) {  // 1.25 wraps to 0.25, as sfizz reads it
    CAPTURE(phase);
    const auto r = playKey(sineTable(std::string("oscillator_phase=") + phase), 60, 2000);
    CHECK(r->left[0] == Approx(1.0).margin(1e-3));
    double worst = 0.0;
    for (size_t i = 0; i < 2000; ++i)
      worst = std::max(worst, std::fabs(static_cast<double>(r->left[i]) - std::sin(2.0 * kPi * (0.25 + hz * static_cast<double>(i) / kRate))));
    CHECK(worst < 1e-3);
  }
  const auto zero = playKey(sineTable("oscillator_phase=0.5"), 60, 10);
  CHECK(zero->left[0] == Approx(0.0).margin(1e-3));
  CHECK(zero->left[5] < 0.0f);  // half a cycle in: falling through zero

  // Negative: a random phase for every note (four notes in turn, each over when the
  // next starts): their first frames spread over the cycle.
  const SfzProgram random = sineTable("oscillator_phase=-1 ampeg_release=0.001");
  std::vector<TimedEvent> notes{cc(0, 7, 127)};
  for (int64_t k = 0; k < 4; ++k) {
    notes.push_back(noteOn(2000 * k, 60));
    notes.push_back(noteOff(2000 * k + 400, 60));
  }
  const auto r = play(random, notes, 8000);
  CHECK(r->left[1900] == 0.0f);
  float lowest = 1.0f, highest = -1.0f;
  for (size_t k = 0; k < 4; ++k) {
    CHECK(std::fabs(r->left[2000 * k]) <= 1.0f);
    lowest = std::min(lowest, r->left[2000 * k]);
    highest = std::max(highest, r->left[2000 * k]);
  }
  CHECK(highest - lowest > 0.5f);
  const SfzProgram fixed = sineTable("oscillator_phase=0.1 ampeg_release=0.001");
  const auto f = play(fixed, {cc(0, 7, 127), noteOn(0, 60), noteOff(400, 60), noteOn(2000, 60)}, 2100);
  CHECK(f->left[0] == Approx(std::sin(0.2 * kPi)).margin(1e-3));
  CHECK(f->left[2000] == Approx(f->left[0]).margin(1e-6));
}

TEST_CASE("oscillator_multi=3 oscillator_detune=20: three copies at 0, -20, +20 cents, spread left to right",
          "[engine][v2][oscillator]") {
  const auto r = playKey(sineTable("oscillator_multi=3 oscillator_detune=20"), 69, 110000);
  const size_t from = 4000, n = 96000;  // 2 s: 0.5 Hz apart per DFT bin; the copies are 5 Hz apart
  // The reference's gains for copy i of m: left i/(m-1), right 1 - i/(m-1); copy 0 is
  // in tune, copy 1 at -detune, copy 2 at +detune.
  CHECK(amplitudeAt(r->left, from, n, 440.0) == Approx(0.0).margin(0.01));
  CHECK(amplitudeAt(r->left, from, n, cents(440.0, -20.0)) == Approx(0.5).epsilon(0.02));
  CHECK(amplitudeAt(r->left, from, n, cents(440.0, 20.0)) == Approx(1.0).epsilon(0.02));
  CHECK(amplitudeAt(r->right, from, n, 440.0) == Approx(1.0).epsilon(0.02));
  CHECK(amplitudeAt(r->right, from, n, cents(440.0, -20.0)) == Approx(0.5).epsilon(0.02));
  CHECK(amplitudeAt(r->right, from, n, cents(440.0, 20.0)) == Approx(0.0).margin(0.01));
  // Nothing between the partials (10 cents off each).
  CHECK(amplitudeAt(r->left, from, n, cents(440.0, 10.0)) < 0.02);
}

TEST_CASE("oscillator_multi=9 spreads nine copies by the reference's coefficients", "[engine][v2][oscillator]") {
  const auto r = playKey(sineTable("oscillator_multi=9 oscillator_detune=400"), 69, 110000);
  const double coefficient[] = {0.0, -1.0, 1.0, -0.25, 0.25, -0.5, 0.5, -0.75, 0.75};
  for (int i = 0; i < 9; ++i) {
    CAPTURE(i);
    const double hz = cents(440.0, 400.0 * coefficient[i]);
    CHECK(amplitudeAt(r->left, 4000, 96000, hz) == Approx(i / 8.0).margin(0.02));
    CHECK(amplitudeAt(r->right, 4000, 96000, hz) == Approx(1.0 - i / 8.0).margin(0.02));
  }
}

TEST_CASE("oscillator_multi=2: ring modulation, the sum and difference frequencies only",
          "[engine][v2][oscillator]") {
  // Carrier 440 Hz, modulator 700 cents up (659.26 Hz), depth 50 %: 0.5 x sin a x sin b
  // = 0.25 cos(a - b) - 0.25 cos(a + b).
  const auto r = playKey(sineTable("oscillator_multi=2 oscillator_detune=700 oscillator_mod_depth=50"), 69, 60000);
  const double modulator = cents(440.0, 700.0);
  CHECK(amplitudeAt(r->left, 4000, 48000, modulator - 440.0) == Approx(0.25).epsilon(0.02));
  CHECK(amplitudeAt(r->left, 4000, 48000, modulator + 440.0) == Approx(0.25).epsilon(0.02));
  CHECK(amplitudeAt(r->left, 4000, 48000, 440.0) < 0.005);
  CHECK(amplitudeAt(r->left, 4000, 48000, modulator) < 0.005);
  CHECK(r->right[1234] == r->left[1234]);  // mono
}

TEST_CASE("oscillator_mode=2: frequency modulation with Bessel sidebands", "[engine][v2][oscillator]") {
  // f(t) = 440 (1 + d sin(2 pi fm t)), d = mod_depth / 100: index beta = d 440 / fm.
  const double fm = cents(440.0, 700.0), beta = 440.0 / fm;
  for (const char* mode : {"2", "1"}) {  // mode 1 (phase modulation) plays as FM, as in sfizz
    CAPTURE(mode);
    const auto r = playKey(
        sineTable(std::string("oscillator_mode=") + mode + " oscillator_detune=700 oscillator_mod_depth=100"), 69, 60000);
    CHECK(amplitudeAt(r->left, 4000, 48000, 440.0) == Approx(std::cyl_bessel_j(0.0, beta)).epsilon(0.02));
    CHECK(amplitudeAt(r->left, 4000, 48000, 440.0 + fm) == Approx(std::cyl_bessel_j(1.0, beta)).epsilon(0.03));
    CHECK(amplitudeAt(r->left, 4000, 48000, fm - 440.0) == Approx(std::cyl_bessel_j(1.0, beta)).epsilon(0.03));
    CHECK(amplitudeAt(r->left, 4000, 48000, 440.0 + 2 * fm) == Approx(std::cyl_bessel_j(2.0, beta)).epsilon(0.05));
  }
  // Depth 0: the carrier alone.
  const auto plain = playKey(sineTable("oscillator_mode=2 oscillator_detune=700"), 69, 60000);
  CHECK(amplitudeAt(plain->left, 4000, 48000, 440.0) == Approx(1.0).epsilon(0.01));
  CHECK(amplitudeAt(plain->left, 4000, 48000, 440.0 + fm) < 0.005);
}

TEST_CASE("oscillator_quality: nearest, linear and Hermite reads of the table", "[engine][v2][oscillator]") {
  const double hz = noteToHz(62.0);  // two semitones up: positions between table frames
  const auto worst = [&](const std::string& quality) {
    const auto r = playKey(sineTable("oscillator_quality=" + quality), 62, 4000);
    double e = 0.0;
    for (size_t i = 0; i < 4000; ++i)
      e = std::max(e, std::fabs(static_cast<double>(r->left[i]) - std::sin(2.0 * kPi * hz * static_cast<double>(i) / kRate)));
    return e;
  };
  const double nearest = worst("0"), linear = worst("1"), hermite = worst("2");
  CAPTURE(nearest, linear, hermite);
  CHECK(nearest > 1e-3);     // half a table step of a 1024-frame cycle: up to 3e-3
  CHECK(linear < 2e-5);      // (2 pi / 1024)^2 / 8 = 4.7e-6
  CHECK(linear > hermite);
  CHECK(hermite < 2e-6);
}

TEST_CASE("oscillator=on plays a file's frames as one cycle at the key's pitch", "[engine][v2][oscillator]") {
  // 100 frames of one sine cycle at 48 kHz: as a sample it is 480 Hz and lasts 2 ms.
  const auto cycle = sine(480.0, kRate, 100, 1.0f);
  for (const char* on : {"on", "auto"}) {  // auto: sfizz's rule, a file under 3000 frames
    CAPTURE(on);
    SfzProgram p(std::string("<region> sample=cycle.wav amp_veltrack=0 oscillator=") + on, cycle);
    REQUIRE(p.warnings.empty());
    const auto r = play(p, {cc(0, 7, 127), noteOn(0, 69)}, 60000);
    CHECK(amplitudeAt(r->left, 4000, 48000, 440.0) == Approx(1.0).epsilon(0.01));
    CHECK(amplitudeAt(r->left, 4000, 48000, 480.0) < 0.01);
    CHECK(r->engine.stats().activeVoices == 1);  // still sounding after a second
  }
  SfzProgram off("<region> sample=cycle.wav amp_veltrack=0 oscillator=off", cycle);
  const auto r = play(off, {cc(0, 7, 127), noteOn(0, 69)}, 4800);
  CHECK(r->engine.stats().activeVoices == 0);  // a 100-frame sample, over
}

}  // namespace oscillator_tests
