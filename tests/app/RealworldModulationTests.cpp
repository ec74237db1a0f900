// A real ARIA library's labelled controllers, through the Loader and the engine:
// Karoryfer HorsePulse "07-flam" connects CC31 to width (width=0 width_oncc31=100),
// CC110 to the sample offset ("Preroll", offset_oncc110) and CC113 to the amplitude of
// its "Deep" layer (amplitude_oncc113=100 locc113=1). Each CC, turned, must change
// the render by the amount its opcodes say.
#include <algorithm>
#include <cmath>
#include <vector>

#include "Fixtures.h"
#include "session/Loader.h"
#include "catch.h"
#include "core/MidiEvent.h"
#include "engine/Engine.h"

namespace realworld_modulation_tests {

using spindle::session::Loader;
namespace engine = spindle::engine;

namespace {

struct Render {
  std::vector<float> left, right;
};

// Key 38 (the flam's D3) at velocity 100 after CC7=127 and the CC under test; 1 s.
Render play(const engine::Program* program, int cc, int value) {
  engine::Engine e(engine::EngineConfig{48000.0, 256, 64, engine::Quality::Hermite, 1});
  engine::Command c;
  c.type = engine::CommandType::SetProgram;
  c.part = 0;
  c.program = program;
  REQUIRE(e.postCommand(c));
  Render r;
  std::vector<float> l(256), rr(256);
  for (int block = 0; block < 188; ++block) {
    std::vector<spindle::MidiEvent> events;
    if (block == 0) {
      events.push_back({0, spindle::midi::kControlChange, 7, 127});
      events.push_back({0, spindle::midi::kControlChange, static_cast<uint8_t>(cc), static_cast<uint8_t>(value)});
      events.push_back({1, spindle::midi::kNoteOn, 38, 100});
    }
    e.process(events.data(), static_cast<int>(events.size()), l.data(), rr.data(), 256);
    r.left.insert(r.left.end(), l.begin(), l.end());
    r.right.insert(r.right.end(), rr.begin(), rr.end());
  }
  e.collectAllPrograms([](const engine::Program*) {});
  return r;
}

double rmsDb(const std::vector<float>& x) {
  double sum = 0.0;
  for (const float v : x) sum += static_cast<double>(v) * static_cast<double>(v);
  return 10.0 * std::log10(sum / static_cast<double>(x.size()) + 1e-30);
}

size_t peakFrame(const std::vector<float>& x) {
  const auto it = std::max_element(x.begin(), x.end(), [](float a, float b) { return std::fabs(a) < std::fabs(b); });
  return static_cast<size_t>(it - x.begin());
}

}  // namespace

TEST_CASE("HorsePulse 07-flam: width, preroll and deep layer follow CC31, CC110, CC113", "[app][mod][realworld][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "realworld/karoryfer-horsepulse/Programs/07-flam.sfz");
  const auto sfz = fixtures / "realworld" / "karoryfer-horsepulse" / "Programs" / "07-flam.sfz";
  Loader loader(spindle::stream::PoolOptions{-1, 0, 0});
  const Loader::Result loaded = loader.load(sfz);
  REQUIRE(loaded.program);
  const engine::Program* program = loaded.program.get();

  // CC31 = 0: width 0, both sides equal; 127: the stereo image is back (sides differ).
  const Render narrow = play(program, 31, 0), wide = play(program, 31, 127);
  CHECK(std::fabs(rmsDb(narrow.left) - rmsDb(narrow.right)) < 0.01);
  CHECK(std::fabs(rmsDb(wide.left) - rmsDb(wide.right)) > 0.5);
  CHECK(rmsDb(narrow.left) > -60.0);

  // CC110 = 127 starts the first layer 4100 file frames into its sample (CC 0: at 0):
  // the flam's attack comes that much earlier, in output frames at 48 kHz.
  const spindle::SampleData* sample = program->samples.at(static_cast<size_t>(program->regions.at(0).sampleIndex));
  REQUIRE(sample);
  const double expected = 4100.0 * 48000.0 / sample->sampleRate;
  const Render early = play(program, 110, 127), late = play(program, 110, 0);
  const auto shift = static_cast<double>(peakFrame(late.left)) - static_cast<double>(peakFrame(early.left));
  CHECK(shift == Approx(expected).margin(2.0));

  // CC113 = 127 adds the "Deep" layer (locc113=1) at full amplitude: louder.
  const Render plain = play(program, 113, 0), deep = play(program, 113, 127);
  CHECK(rmsDb(deep.left) - rmsDb(plain.left) > 2.0);
}

}  // namespace realworld_modulation_tests
