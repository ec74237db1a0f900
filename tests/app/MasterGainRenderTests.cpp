// The master stage, rendered by spindle-render: --master-gain scales the main output
// after the reverb and chorus by its decibels, and 0 dB renders bit for bit as without it.
#include <fstream>

#include "NoiseSample.h"
#include "RenderSupport.h"
#include "RunProcess.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace master_gain_render_tests {

using namespace spindle;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr size_t kRate = 48000;

test::Rendered render(const std::filesystem::path& dir, const std::vector<std::string>& options, const std::string& name) {
  std::vector<std::string> args{kExe, "--sfz", (dir / "noise.sfz").string(), "--midi", (dir / "note.mid").string(),
                                "--wav", (dir / (name + ".wav")).string()};
  args.insert(args.end(), options.begin(), options.end());
  const test::ProcessResult run = test::runProcess(args, dir);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  test::Rendered out{run.exitCode, run.out, run.err, {}, {}};
  stream::SamplePool pool;
  const SampleData* data = pool.acquire((dir / (name + ".wav")).string());
  REQUIRE(data);
  out.left.resize(static_cast<size_t>(data->totalFrames));
  out.right.resize(static_cast<size_t>(data->totalFrames));
  data->readFrames(0, 0, data->totalFrames, out.left.data());
  data->readFrames(1, 0, data->totalFrames, out.right.data());
  return out;
}

}  // namespace

TEST_CASE("--master-gain scales the main output by its decibels; 0 dB changes nothing", "[app][effects][master]") {
  const auto dir = test::scratchDir("master-gain");
  test::writeNoise(dir / "noise.wav", static_cast<int>(kRate));
  std::ofstream(dir / "noise.sfz") << "<region> sample=noise.wav amp_veltrack=0\n";
  test::saveBytes(dir / "note.mid", test::buildSong({{0, {0x90, 60, 100}}, {960, {0x80, 60, 0}}}));
  const auto plain = render(dir, {}, "plain");
  const auto zero = render(dir, {"--master-gain", "0"}, "zero");
  const auto quieter = render(dir, {"--master-gain", "-9.5"}, "quieter");
  const auto louder = render(dir, {"--master-gain", "3"}, "louder");
  const double base = test::levelDb(plain, kRate / 4, kRate * 3 / 4);
  INFO("plain " << base << " dB");
  CHECK(test::relativeDifference(plain, zero) == 0.0);
  CHECK(test::levelDb(quieter, kRate / 4, kRate * 3 / 4) - base == Approx(-9.5).margin(0.01));
  CHECK(test::levelDb(louder, kRate / 4, kRate * 3 / 4) - base == Approx(3.0).margin(0.01));
}

}  // namespace master_gain_render_tests
