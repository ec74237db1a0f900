// direction=reverse through the real loader: a file longer than the preload, which a
// forward region streams, plays reversed and whole from RAM in spindle-render; the
// Loader reports a reversed copy as a sample of its own, counts it in the memory, and
// names a missing file once.
#include <algorithm>
#include <cmath>
#include <fstream>

#include "RenderSupport.h"
#include "session/Loader.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace reverse_render_tests {

using spindle::test::runProcess;
using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr int kFrames = 48000;  // 1 s: far past a 2048-frame preload plus one 4096-frame read

// Mono 16-bit ramp 1..32000: never silent, never symmetric.
std::vector<int16_t> ramp16() {
  std::vector<int16_t> out;
  for (int i = 0; i < kFrames; ++i) out.push_back(static_cast<int16_t>(1 + i * 2 / 3));
  return out;
}

float frameValue(int i) { return static_cast<float>(1 + i * 2 / 3) / 32768.0f; }

}  // namespace

TEST_CASE("spindle-render plays a direction=reverse region of a streamed file reversed and whole",
          "[app][reverse]") {
  const auto dir = scratchDir("render-reverse");
  spindle::test::writeWav16(dir / "ramp.wav", 1, ramp16(), 48000);
  std::ofstream(dir / "x.sfz") << "<group> amp_veltrack=0 ampeg_release=0\n"
                                  "<region> sample=ramp.wav key=60 direction=reverse\n"
                                  "<region> sample=ramp.wav key=62\n";
  // Key 60 at 0 s, key 62 at 1.5 s (72000 frames); 960 ticks = 1 s.
  spindle::test::saveBytes(dir / "song.mid", spindle::test::buildSong({{0, {0x90, 60, 100}},
                                                                       {1200, {0x80, 60, 0}},
                                                                       {1440, {0x90, 62, 100}},
                                                                       {2640, {0x80, 62, 0}}}));
  const auto run = runProcess({kExe, "--sfz", (dir / "x.sfz").string(), "--midi", (dir / "song.mid").string(), "--wav",
                               (dir / "out.wav").string(), "--preload-frames", "2048", "--read-size", "16",
                               "--quality", "0"},
                              dir);
  INFO(run.out << run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(run.out.find("(1 of 2 samples streamed,") != std::string::npos);  // the forward one only
  CHECK(run.out.find(" 0 underruns") != std::string::npos);
  spindle::stream::SamplePool reader;
  const spindle::SampleData* out = reader.acquire((dir / "out.wav").string());
  REQUIRE(out != nullptr);
  REQUIRE(out->totalFrames > 72000 + kFrames);
  std::vector<float> frames(static_cast<size_t>(out->totalFrames));
  out->readFrames(0, 0, out->totalFrames, frames.data());
  const float* left = frames.data();
  const float gain = left[0] / frameValue(kFrames - 1);
  CHECK(gain > 0.1f);
  int wrongReversed = 0, wrongForward = 0;
  for (int k = 0; k < kFrames; ++k) {
    wrongReversed += std::abs(left[k] - gain * frameValue(kFrames - 1 - k)) > 1e-6f;
    wrongForward += std::abs(left[72000 + k] - gain * frameValue(k)) > 1e-6f;
  }
  CHECK(wrongReversed == 0);  // frame k of the note is the file's frame total-1-k...
  CHECK(left[kFrames - 1] == Approx(gain * frameValue(0)));  // ...down to the first frame
  CHECK(left[kFrames] == 0.0f);                                // and no further
  CHECK(wrongForward == 0);  // the streamed forward region still plays as it did
}

TEST_CASE("the Loader holds a reversed copy whole, counts it, and names a missing file once", "[app][reverse]") {
  const auto dir = scratchDir("loader-reverse");
  spindle::test::writeWav16(dir / "ramp.wav", 1, ramp16(), 48000);
  std::ofstream(dir / "x.sfz") << "<region> sample=ramp.wav key=60\n"
                                  "<region> sample=ramp.wav key=61 direction=reverse\n"
                                  "<region> sample=gone.wav key=62 direction=reverse\n"
                                  "<region> sample=gone.wav key=63\n";
  spindle::session::Loader loader(spindle::stream::PoolOptions{2048, 4096, 0});
  const auto result = loader.load(dir / "x.sfz");
  REQUIRE(result.program);
  const auto& report = result.report;
  CHECK(report.samples == 2);  // files: ramp.wav (both ways), gone.wav
  CHECK(report.samplesLoaded == 1);
  CHECK(result.program->samples.size() == 4);  // entries: each file forward and reversed
  REQUIRE(report.missingFiles.size() == 1);
  CHECK(report.missingFiles[0] == (dir / "gone.wav").string());
  CHECK(report.sampleErrors.empty());
  const auto& regions = result.program->regions;
  const spindle::SampleData* forward = result.program->samples.at(static_cast<std::size_t>(regions[0].sampleIndex));
  const spindle::SampleData* backward = result.program->samples.at(static_cast<std::size_t>(regions[1].sampleIndex));
  REQUIRE((forward && backward));
  // The preload covers the highest pitch the region plays: its key, bent 2 semitones up.
  CHECK(forward->framesInRam == static_cast<int64_t>(std::ceil(2048 * std::exp2(200.0 / 1200.0))));
  CHECK(backward->framesInRam == kFrames);
  CHECK(backward->path == nullptr);
  CHECK(backward->frameAt(0, 0) == frameValue(kFrames - 1));
  CHECK(backward->frameAt(0, kFrames - 1) == frameValue(0));
  const auto& pool = loader.pool();
  const std::string ramp = (dir / "ramp.wav").string();
  CHECK(report.bytesInRam ==
        pool.find(ramp)->storageBytes + pool.find(ramp, spindle::stream::SampleDirection::Reverse)->storageBytes);
  const auto named = std::count_if(pool.messages().begin(), pool.messages().end(), [&](const auto& m) {
    return m.text.find((dir / "gone.wav").string()) != std::string::npos;
  });
  CHECK(named == 1);
}

}  // namespace reverse_render_tests
