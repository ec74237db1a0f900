// Golden render: a small instrument built here (looped sine with LFOs, a filtered
// decaying noise burst with a filter envelope, two velocity layers, one stereo) plays
// a fixed note sequence; the output must match tests/engine/core/golden/*.f32.
//
// File format: raw little-endian float32, interleaved stereo, 24000 frames (188 KiB).
// Tolerance: max |difference| <= 1e-5 per value (differences between compilers and
// optimisation levels, e.g. FMA contraction, stay far below that).
// SPINDLE_UPDATE_GOLDEN=1 rewrites the file from the current engine instead.
#include <bit>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "EngineTestSupport.h"
#include "catch.h"

namespace golden_render_tests {

using namespace spindle;
using namespace spindle::test;

static_assert(std::endian::native == std::endian::little, "golden files are little-endian float32");

namespace {

constexpr int kFrames = 24000;
constexpr float kTolerance = 1e-5f;

std::filesystem::path goldenPath(const char* name) {
  return std::filesystem::path(SPINDLE_SOURCE_DIR) / "tests" / "engine" / "core" / "golden" / name;
}

void addInstrument(TestProgram& tp) {
  // 240 Hz: exactly 200 frames per cycle, so a 4800-frame loop is seamless.
  Region& pad = tp.addRegion(tp.addSample(std::make_unique<TestSample>(sine(240.0, 48000.0, 4800, 0.3f))), 48, 59);
  pad.pitchKeycenter = 55;
  pad.loopStart = 0;
  pad.loopEnd = 4799;
  pad.loopMode = LoopMode::LoopContinuous;
  pad.loopModeSet = true;
  pad.ampeg.attack = 0.005f;
  pad.ampeg.release = 0.05f;
  pad.amplfo = {0.0f, 0.0f, 5.0f, 3.0f};
  pad.pitchlfo = {0.02f, 0.05f, 6.0f, 20.0f};
  pad.pan = -30.0f;

  std::vector<float> burst(9600);
  engine::Prng rng(11);
  for (size_t i = 0; i < burst.size(); ++i) burst[i] = 0.6f * rng.bipolar() * std::exp(-static_cast<float>(i) / 1500.0f);
  Region& hit = tp.addRegion(tp.addSample(std::make_unique<TestSample>(burst)), 60, 71);
  hit.cutoff = 1500.0f;
  hit.resonance = 6.0f;
  hit.filKeytrack = 50.0f;
  hit.fileg.decay = 0.04f;
  hit.fileg.depth = 2400.0f;
  hit.ampVeltrack = 100.0f;
  hit.pan = 40.0f;

  std::vector<float> sawL(24000), sawR(24000), square(24000);
  for (size_t i = 0; i < sawL.size(); ++i) {
    sawL[i] = 0.25f * (static_cast<float>(i % 100) / 50.0f - 1.0f);
    sawR[i] = 0.25f * (static_cast<float>((i + 30) % 100) / 50.0f - 1.0f);
    square[i] = (i / 80) % 2 ? 0.2f : -0.2f;
  }
  Region& soft = tp.addRegion(tp.addSample(std::make_unique<TestSample>(sawL, sawR)), 72, 84);
  soft.hivel = 80;
  soft.width = 50.0f;
  soft.ampeg.decay = 0.1f;
  soft.ampeg.sustain = 40.0f;
  Region& loud = tp.addRegion(tp.addSample(std::make_unique<TestSample>(square)), 72, 84);
  loud.lovel = 81;
  loud.pitchKeycenter = 72;
  loud.tune = 30.0f;
}

std::vector<float> renderGolden() {
  TestProgram tp;
  addInstrument(tp);
  Renderer out;
  out.setProgram(tp.prepare());
  out.run({noteOn(0, 55, 100), noteOn(1200, 64, 120), noteOn(3000, 76, 60), noteOn(5003, 77, 110),
           bend(6000, 3000), noteOn(7777, 62, 40), noteOff(9000, 55), noteOff(9500, 76), cc(10000, 10, 30),
           noteOn(12000, 50, 90), noteOn(12001, 79, 127), noteOff(16000, 79), noteOff(20000, 50)},
          kFrames);
  std::vector<float> interleaved(2 * kFrames);
  for (size_t i = 0; i < kFrames; ++i) {
    interleaved[2 * i] = out.left[i];
    interleaved[2 * i + 1] = out.right[i];
  }
  return interleaved;
}

}  // namespace

TEST_CASE("golden render of a small instrument matches tests/engine/core/golden", "[engine][golden]") {
  const std::vector<float> rendered = renderGolden();
  const auto path = goldenPath("basic_mix.f32");
  const char* update = std::getenv("SPINDLE_UPDATE_GOLDEN");
  if (update && std::strcmp(update, "1") == 0) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(rendered.data()), static_cast<std::streamsize>(rendered.size() * sizeof(float)));
    REQUIRE(f.good());
    WARN("rewrote " << path.string());
    return;
  }
  std::ifstream f(path, std::ios::binary);
  INFO("golden file " << path.string() << " (SPINDLE_UPDATE_GOLDEN=1 writes it)");
  REQUIRE(f.good());
  std::vector<float> golden(rendered.size());
  f.read(reinterpret_cast<char*>(golden.data()), static_cast<std::streamsize>(golden.size() * sizeof(float)));
  REQUIRE(f.gcount() == static_cast<std::streamsize>(golden.size() * sizeof(float)));
  float worst = 0.0f;
  size_t where = 0;
  for (size_t i = 0; i < golden.size(); ++i) {
    const float d = std::fabs(golden[i] - rendered[i]);
    if (d > worst) {
      worst = d;
      where = i;
    }
  }
  INFO("max abs diff " << worst << " at frame " << where / 2 << (where % 2 ? " right" : " left"));
  CHECK(worst <= kTolerance);
  // The render is not silence and not clipped: a guard against a golden of nothing.
  float peak = 0.0f;
  for (float v : rendered) peak = std::max(peak, std::fabs(v));
  CHECK(peak > 0.05f);
  CHECK(peak < 1.5f);
}

}  // namespace golden_render_tests
