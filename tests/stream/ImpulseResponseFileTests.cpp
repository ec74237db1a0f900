// Impulse responses read from files and resampled: a sine resampled from 44.1 to 48 kHz
// (and back down) is the same sine at the new rate, and a response keeps its gain.
#include <cmath>
#include <fstream>
#include <numbers>
#include <vector>

#include "TestAudioFiles.h"
#include "catch.h"
#include "stream/ImpulseResponseFile.h"

namespace impulse_response_file_tests {

namespace st = spindle::stream;

namespace {

std::vector<float> sine(double hz, double rate, int frames) {
  std::vector<float> out(static_cast<size_t>(frames));
  for (int i = 0; i < frames; ++i) out[static_cast<size_t>(i)] = static_cast<float>(std::sin(2.0 * std::numbers::pi * hz * i / rate));
  return out;
}

// The largest difference from `want` away from the ends (the window's reach).
double worstInside(const std::vector<float>& got, const std::vector<float>& want) {
  double worst = 0.0;
  for (size_t i = 200; i + 200 < std::min(got.size(), want.size()); ++i)
    worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i])));
  return worst;
}

}  // namespace

TEST_CASE("resampleFrames: a 1 kHz sine from 44.1 to 48 kHz and from 48 to 44.1 kHz", "[stream][impulse]") {
  const std::vector<float> up = st::resampleFrames(sine(1000.0, 44100.0, 44100), 44100.0, 48000.0);
  CHECK(up.size() == 48000);
  // The gain of a response is kept: a sine's samples scale by 44.1 / 48.
  std::vector<float> want = sine(1000.0, 48000.0, 48000);
  for (float& f : want) f *= 44100.0f / 48000.0f;
  CHECK(worstInside(up, want) < 1e-4);
  const std::vector<float> down = st::resampleFrames(sine(1000.0, 48000.0, 48000), 48000.0, 44100.0);
  CHECK(down.size() == 44100);
  std::vector<float> wantDown = sine(1000.0, 44100.0, 44100);
  for (float& f : wantDown) f *= 48000.0f / 44100.0f;
  CHECK(worstInside(down, wantDown) < 1e-4);
}

TEST_CASE("resampleFrames: an impulse's sum (the response's gain at DC) stays 1", "[stream][impulse]") {
  std::vector<float> impulse(2000, 0.0f);
  impulse[1000] = 1.0f;
  for (double to : {48000.0, 96000.0, 22050.0}) {
    const std::vector<float> out = st::resampleFrames(impulse, 44100.0, to);
    double sum = 0.0;
    for (float f : out) sum += static_cast<double>(f);
    INFO(to);
    CHECK(sum == Approx(1.0).margin(1e-3));
  }
}

TEST_CASE("readImpulseResponse: a stereo WAV's two channels, and errors for what is not audio", "[stream][impulse]") {
  const auto dir = spindle::test::scratchDir("impulse-read");
  spindle::test::writeWav16(dir / "ir.wav", 2, {16384, -16384, 8192, 0, 0, 4096}, 44100);
  std::string error;
  const auto ir = st::readImpulseResponse(dir / "ir.wav", error);
  REQUIRE(ir);
  CHECK(ir->sampleRate == 44100.0);
  CHECK(ir->left == std::vector<float>{0.5f, 0.25f, 0.0f});
  CHECK(ir->right == std::vector<float>{-0.5f, 0.0f, 0.125f});
  std::ofstream(dir / "text.wav") << "not audio";
  CHECK_FALSE(st::readImpulseResponse(dir / "text.wav", error));
  CHECK_FALSE(error.empty());
  const auto same = st::resampleImpulseResponse(ir, 44100.0);
  CHECK(same == ir);  // already at the rate: the same frames
  CHECK(st::resampleImpulseResponse(ir, 48000.0)->sampleRate == 48000.0);
}

}  // namespace impulse_response_file_tests
