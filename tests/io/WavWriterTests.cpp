// WavWriter round trips, read back through the sample pool.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "catch.h"
#include "io/WavWriter.h"
#include "stream/SamplePool.h"

namespace wav_writer_tests {

using spindle::io::WavFormat;
using spindle::io::WavWriter;

namespace {

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::path(SPINDLE_BINARY_DIR) / "test-scratch" / "wav-writer";
  std::filesystem::create_directories(dir);
  return dir / name;
}

struct FormatCase {
  WavFormat format;
  const char* formatName;
  double tolerance;
};

constexpr int kFrames = 10000;  // more than one internal chunk
constexpr int kClipFrame = 100;

// Writes left/right in two calls, reads the file back through the pool and compares.
void checkRoundTrip(const FormatCase& c, const std::vector<float>& left, const std::vector<float>& right) {
  const auto path = scratch(std::string("out-") + spindle::io::wavFormatName(c.format) + ".wav");
  std::string error;
  auto writer = WavWriter::create(path, 44100, c.format, error);
  REQUIRE(writer);
  REQUIRE(writer->write(left.data(), right.data(), 3000));
  REQUIRE(writer->write(left.data() + 3000, right.data() + 3000, kFrames - 3000));
  CHECK(writer->framesWritten() == kFrames);
  REQUIRE(writer->close());

  spindle::stream::SamplePool pool;
  const auto* data = pool.acquire(path.string());
  REQUIRE(data != nullptr);
  CHECK(pool.record(data->id).formatName == c.formatName);
  CHECK(data->totalFrames == kFrames);
  CHECK(data->channels == 2);
  CHECK(data->sampleRate == 44100.0);
  double worst = 0.0;
  for (int i = 0; i < kFrames; ++i) {
    if (i == kClipFrame) continue;
    worst = std::max(worst, static_cast<double>(std::abs(data->frameAt(0, i) - left[i])));
    worst = std::max(worst, static_cast<double>(std::abs(data->frameAt(1, i) - right[i])));
  }
  CHECK(worst <= c.tolerance);
  if (c.format == WavFormat::Float32) CHECK(data->frameAt(0, kClipFrame) == 1.5f);
  else CHECK(data->frameAt(0, kClipFrame) == Approx(1.0).margin(c.tolerance));
}

}  // namespace

TEST_CASE("each output format round-trips within its resolution and clips full scale") {
  std::vector<float> left(kFrames), right(kFrames);
  for (int i = 0; i < kFrames; ++i) {
    left[i] = static_cast<float>(0.9 * std::sin(i * 0.01));
    right[i] = -0.5f * left[i];
  }
  left[kClipFrame] = 1.5f;  // beyond full scale: integer formats saturate
  for (const FormatCase& c : {FormatCase{WavFormat::Float32, "WAV FLOAT", 0.0},
                              FormatCase{WavFormat::Int16, "WAV PCM_16", 1.0 / 32768.0},
                              FormatCase{WavFormat::Int24, "WAV PCM_24", 1.0 / 8388608.0}}) {
    INFO(c.formatName);
    checkRoundTrip(c, left, right);
  }
}

TEST_CASE("format names parse both ways") {
  for (const char* name : {"f32", "s16", "s24"}) CHECK(spindle::io::wavFormatName(*spindle::io::parseWavFormat(name)) == std::string(name));
  CHECK_FALSE(spindle::io::parseWavFormat("u8"));
}

TEST_CASE("an output path that cannot be created gives libsndfile's reason") {
  std::string error;
  CHECK(WavWriter::create("/nonexistent-dir/out.wav", 48000, WavFormat::Float32, error) == nullptr);
  CHECK_FALSE(error.empty());
}

TEST_CASE("the same blocks written a second apart give byte-identical files") {
  // libsndfile's PEAK chunk carries the wall-clock second it was written; renders must not.
  std::vector<float> left(kFrames), right(kFrames);
  for (int i = 0; i < kFrames; ++i) left[i] = right[i] = static_cast<float>(0.5 * std::sin(i * 0.02));
  const auto write = [&](const std::string& name) {
    std::string error;
    auto writer = WavWriter::create(scratch(name), 48000, WavFormat::Float32, error);
    REQUIRE(writer);
    REQUIRE(writer->write(left.data(), right.data(), kFrames));
    REQUIRE(writer->close());
    std::ifstream in(scratch(name), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string first = write("same-a.wav");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  const std::string second = write("same-b.wav");
  const std::size_t data = first.find("data");
  REQUIRE(data != std::string::npos);
  CHECK(first.size() - data - 8 == 8 * static_cast<std::size_t>(kFrames));  // the frames end the file
  CHECK(first.find("PEAK") == std::string::npos);
  CHECK(first == second);
}

}  // namespace wav_writer_tests
