// Karoryfer Weresax's synth programs, through the Loader and the engine: Saxcordion's
// tremolo is lfo01 on volume (depth -4 dB from CC113, rate 1 + 9 * CC112/127 Hz, CC112
// set to 24: 2.70 Hz); Sxnth's "wobble" is lfo02 on the cutoff (2400 cents from CC122,
// rate 0.5 + 9.5 * CC123/127 Hz, CC123 set to 32: 2.89 Hz). Each renders non-silent,
// and with its depth controller up the level moves at the LFO's rate: the strongest
// movement of the 10 ms level (detrended, Hann window) lies there, several times what
// the same note has at that rate with the controller down.
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "Fixtures.h"
#include "session/Loader.h"
#include "catch.h"
#include "core/MidiEvent.h"
#include "engine/Engine.h"

namespace realworld_synthesis_tests {

using spindle::session::Loader;
namespace engine = spindle::engine;

namespace {

constexpr double kRate = 48000.0;

// Key 62 at velocity 100 after the program's set_cc values, CC7=127 and `ccs`; 4 s.
std::vector<float> play(const engine::Program* program, std::vector<std::pair<int, int>> ccs) {
  engine::Engine e(engine::EngineConfig{kRate, 256, 64, engine::Quality::Hermite, 1});
  engine::Command c;
  c.type = engine::CommandType::SetProgram;
  c.part = 0;
  c.program = program;
  REQUIRE(e.postCommand(c));
  std::vector<float> out, l(256), r(256);
  for (int block = 0; block < 750; ++block) {
    std::vector<spindle::MidiEvent> events;
    if (block == 1) {
      events.push_back({0, spindle::midi::kControlChange, 7, 127});
      for (const auto& [cc, value] : ccs)
        events.push_back({0, spindle::midi::kControlChange, static_cast<uint8_t>(cc), static_cast<uint8_t>(value)});
      events.push_back({1, spindle::midi::kNoteOn, 62, 100});
    }
    e.process(events.data(), static_cast<int>(events.size()), l.data(), r.data(), 256);
    for (int i = 0; i < 256; ++i) out.push_back(0.5f * (l[static_cast<size_t>(i)] + r[static_cast<size_t>(i)]));
  }
  e.collectAllPrograms([](const engine::Program*) {});
  return out;
}

// The level in 10 ms windows over [1 s, 4 s), in dB, less its straight-line trend.
std::vector<double> levels(const std::vector<float>& x, double& meanDb) {
  std::vector<double> db;
  double total = 0.0;
  for (size_t w = 100; w < 400; ++w) {
    double sum = 0.0;
    for (size_t i = w * 480; i < (w + 1) * 480; ++i) sum += static_cast<double>(x[i]) * static_cast<double>(x[i]);
    total += sum;
    db.push_back(10.0 * std::log10(sum / 480.0 + 1e-20));
  }
  meanDb = 10.0 * std::log10(total / (300.0 * 480.0) + 1e-20);
  const double n = static_cast<double>(db.size());
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  for (size_t k = 0; k < db.size(); ++k) {
    const double t = static_cast<double>(k);
    sx += t, sy += db[k], sxx += t * t, sxy += t * db[k];
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), cut = (sy - slope * sx) / n;
  for (size_t k = 0; k < db.size(); ++k) db[k] -= cut + slope * static_cast<double>(k);
  return db;
}

// Peak-to-peak dB of the level's component at `hz` (Hann window, amplitude corrected).
double swingAt(const std::vector<double>& db, double hz) {
  double re = 0.0, im = 0.0;
  const double n = static_cast<double>(db.size());
  for (size_t k = 0; k < db.size(); ++k) {
    const double hann = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(k) / (n - 1.0));
    const double t = static_cast<double>(k) * 0.01;
    re += hann * db[k] * std::cos(2.0 * std::numbers::pi * hz * t);
    im += hann * db[k] * std::sin(2.0 * std::numbers::pi * hz * t);
  }
  return 2.0 * 2.0 * 2.0 * std::sqrt(re * re + im * im) / n;  // x2 one-sided, x2 Hann, x2 peak to peak
}

// The rate in [1, 6] Hz where the level moves most.
double strongestRate(const std::vector<double>& db) {
  double best = 0.0, rate = 0.0;
  for (double f = 1.0; f <= 6.0; f += 0.01) {
    const double s = swingAt(db, f);
    if (s > best) best = s, rate = f;
  }
  return rate;
}

}  // namespace

TEST_CASE("Weresax Saxcordion: lfo01's tremolo moves the level at 2.70 Hz with CC113 up", "[app][realworld][lfo][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "realworld/karoryfer-weresax/Programs/saxcordion.sfz");
  const auto sfz = fixtures / "realworld" / "karoryfer-weresax" / "Programs" / "saxcordion.sfz";
  Loader loader(spindle::stream::PoolOptions{-1, 0, 0});  // owns the samples: alive while playing
  const Loader::Result loaded = loader.load(sfz);
  REQUIRE(loaded.program);
  double stillDb = 0.0, movingDb = 0.0;
  const auto still = levels(play(loaded.program.get(), {{113, 0}}), stillDb);
  const auto moving = levels(play(loaded.program.get(), {{113, 127}}), movingDb);
  const double rate = 1.0 + 9.0 * 24.0 / 127.0;
  CHECK(stillDb > -50.0);
  CHECK(movingDb > -50.0);
  CHECK(strongestRate(moving) == Approx(rate).margin(0.1));
  CHECK(swingAt(moving, rate) > 6.0);  // -4 dB of depth: 8 dB peak to peak
  // The samples move a little at that rate by themselves (about 3 dB).
  CHECK(swingAt(moving, rate) > 2.0 * swingAt(still, rate));
}

TEST_CASE("Weresax Sxnth: lfo02's wobble on the cutoff moves the level at 2.89 Hz with CC122 up",
          "[app][realworld][lfo][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "realworld/karoryfer-weresax/Programs/sxnth.sfz");
  const auto sfz = fixtures / "realworld" / "karoryfer-weresax" / "Programs" / "sxnth.sfz";
  Loader loader(spindle::stream::PoolOptions{-1, 0, 0});
  const Loader::Result loaded = loader.load(sfz);
  REQUIRE(loaded.program);
  // CC115 at 0: the cutoff sits near 670 Hz (200 Hz, key and velocity tracking), where a
  // +-2 octave sweep is heard; CC105 at 0 leaves one voice (unison voices beat).
  double stillDb = 0.0, movingDb = 0.0;
  const auto still = levels(play(loaded.program.get(), {{105, 0}, {115, 0}, {122, 0}}), stillDb);
  const auto moving = levels(play(loaded.program.get(), {{105, 0}, {115, 0}, {122, 127}}), movingDb);
  const double rate = 0.5 + 9.5 * 32.0 / 127.0;
  CHECK(stillDb > -50.0);
  CHECK(movingDb > -50.0);
  CHECK(strongestRate(moving) == Approx(rate).margin(0.1));
  CHECK(swingAt(moving, rate) > 3.0);
  CHECK(swingAt(moving, rate) > 4.0 * swingAt(still, rate));
}

}  // namespace realworld_synthesis_tests
