// spindle-render with the other instrument formats: a Hydrogen kit, a DecentSampler
// preset and a SoundFont play, recognised by content; a damaged SoundFont or a binary
// file is refused with one error and a non-zero exit.
#include <cmath>
#include <fstream>
#include <iterator>

#include "Fixtures.h"
#include "RunProcess.h"
#include "catch.h"
#include "io/SmfBuilder.h"
#include "stream/SamplePool.h"
#include "stream/TestAudioFiles.h"

namespace format_render_tests {

using spindle::test::runProcess;
using spindle::test::scratchDir;
using spindle::test::TrackBuilder;
namespace fs = std::filesystem;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;

// Two hits of `key` on channel `channel` (0-based), one second apart, at these velocities.
fs::path writeTwoHits(const fs::path& dir, int channel, int key, int firstVelocity, int secondVelocity) {
  TrackBuilder track;
  const auto on = static_cast<uint8_t>(0x90 | channel), off = static_cast<uint8_t>(0x80 | channel);
  const auto k = static_cast<uint8_t>(key);
  track.event(0, {on, k, static_cast<uint8_t>(firstVelocity)}).event(480, {off, k, 0});
  track.event(480, {on, k, static_cast<uint8_t>(secondVelocity)}).event(480, {off, k, 0}).end();
  const auto path = dir / "hits.mid";
  spindle::test::saveBytes(path, spindle::test::buildSmf(0, 480, {track}));
  return path;
}

// The largest |out - gain * sample| over the sample's frames, starting at `at`.
double worstMismatch(const spindle::SampleData& out, int64_t at, const spindle::SampleData& sample, double gain) {
  double worst = 0.0;
  for (int64_t f = 0; f < sample.totalFrames && at + f < out.totalFrames; ++f)
    worst = std::max(worst, std::abs(static_cast<double>(out.frameAt(0, at + f)) - gain * static_cast<double>(sample.frameAt(0, f))));
  return worst;
}

}  // namespace

TEST_CASE("spindle-render plays a Hydrogen kit folder: the layer of each velocity, at its gain", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "hydrogen/GMRockKit");
  const auto dir = scratchDir("render-hydrogen");
  const fs::path kit = fixtures / "hydrogen" / "GMRockKit";
  const auto midi = writeTwoHits(dir, 9, 36, 120, 20);  // the kick, on the drum channel
  const auto wav = dir / "out.wav";
  // At the samples' own rate a hit is its sample, frame for frame, times its gain.
  const auto run = runProcess({kExe, "--instrument", kit.string(), "--midi", midi.string(), "--wav", wav.string(),
                               "--rate", "44100"}, dir);
  INFO(run.out << run.err);
  REQUIRE(run.exitCode == 0);
  spindle::stream::SamplePool pool;
  const spindle::SampleData* out = pool.acquire(wav.string());
  const spindle::SampleData* hardest = pool.acquire((kit / "Kick-Hardest.wav").string());
  const spindle::SampleData* softest = pool.acquire((kit / "Kick-Softest.wav").string());
  REQUIRE((out && hardest && softest));
  const double cc7 = std::pow(100.0 / 127.0, 2.0);  // the part's default CC7 volume
  // Hydrogen scales a hit linearly by velocity (v/127), not by the SFZ default (v/127)^2.
  CHECK(worstMismatch(*out, 0, *hardest, 120.0 / 127.0 * cc7) < 1e-5);
  CHECK(worstMismatch(*out, 44100, *softest, 20.0 / 127.0 * cc7) < 1e-5);
  CHECK(worstMismatch(*out, 0, *softest, 120.0 / 127.0 * cc7) > 0.01);  // not the other layer
}

TEST_CASE("spindle-render plays a DecentSampler preset", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "decentsampler/example-013-controlling-velocity-sensitivity");
  const auto dir = scratchDir("render-dspreset");
  const fs::path preset = fixtures / "decentsampler" / "example-013-controlling-velocity-sensitivity" /
                          "Example 1 - Controlling polyphony with a button.dspreset";
  const auto midi = writeTwoHits(dir, 0, 60, 100, 100);
  const auto wav = dir / "out.wav";
  const auto run = runProcess({kExe, "--sfz", preset.string(), "--midi", midi.string(), "--wav", wav.string()}, dir);
  INFO(run.out << run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(run.out.find("missing files:   0") != std::string::npos);
  spindle::stream::SamplePool pool;
  const spindle::SampleData* out = pool.acquire(wav.string());
  REQUIRE(out);
  float peak = 0.0f;
  for (int64_t f = 0; f < std::min<int64_t>(out->totalFrames, 48000); ++f) peak = std::max(peak, std::abs(out->frameAt(0, f)));
  CHECK(peak > 0.05f);
}

TEST_CASE("spindle-render plays a SoundFont, and refuses a damaged one and a binary file with one error naming it", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sf2/TimGM6mb.sf2");
  const auto dir = scratchDir("render-refused");
  const auto midi = writeTwoHits(dir, 0, 60, 100, 100);
  const fs::path sf2 = fixtures / "sf2" / "TimGM6mb.sf2";
  const auto run = runProcess({kExe, "--instrument", sf2.string(), "--midi", midi.string(), "--wav", (dir / "o.wav").string()}, dir);
  CHECK(run.exitCode == 0);
  CHECK(run.out.find("malformed") == std::string::npos);
  CHECK(run.out.find("samples:         520 loaded of 520") != std::string::npos);
  spindle::stream::SamplePool pool;
  const spindle::SampleData* out = pool.acquire((dir / "o.wav").string());
  REQUIRE(out);
  float peak = 0.0f;
  for (int64_t f = 0; f < out->totalFrames; ++f) peak = std::max(peak, std::abs(out->frameAt(0, f)));
  CHECK(peak > 0.02f);
  // The same file cut inside its preset data: one error naming it, no output.
  std::ifstream in(sf2, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto cut = dir / "cut.sf2";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 3000);
  const auto damaged = runProcess({kExe, "--instrument", cut.string(), "--midi", midi.string(), "--wav", (dir / "c.wav").string()}, dir);
  CHECK(damaged.exitCode == 1);
  CHECK(damaged.err.find(cut.string() + ": error: ") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "c.wav"));
  const auto junk = dir / "noise.sfz";
  std::ofstream(junk, std::ios::binary) << std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10) << std::string(100, '\0');
  const auto bin = runProcess({kExe, "--instrument", junk.string(), "--midi", midi.string(), "--wav", (dir / "o.wav").string()}, dir);
  CHECK(bin.exitCode == 1);
  CHECK(bin.err.find(junk.string() + ": error: not an instrument") != std::string::npos);
}

}  // namespace format_render_tests
