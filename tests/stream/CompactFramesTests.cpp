// Compact preloads (core/SampleData.h, stream/CompactFrames.h): a sample's frames stay
// in RAM in the file's own format and read back as exactly the floats a float decode
// of the same file gives.
#include <sndfile.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "TestAudioFiles.h"
#include "catch.h"
#include "core/Limits.h"
#include "stream/AudioFile.h"
#include "stream/SamplePool.h"

namespace compact_frames_tests {

using spindle::SampleData;
using spindle::SampleFormat;
using spindle::stream::AudioFileReader;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kFrames = 20000;

// Full-scale deterministic noise, written through libsndfile in `format`.
void writeNoise(const fs::path& path, int format, int channels) {
  SF_INFO info{};
  info.samplerate = 48000;
  info.channels = channels;
  info.format = format;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  REQUIRE(file != nullptr);
  std::vector<int32_t> values(static_cast<std::size_t>(kFrames * channels));
  uint32_t x = 17;
  for (auto& v : values) v = static_cast<int32_t>(x = x * 1664525u + 1013904223u);
  sf_writef_int(file, values.data(), kFrames);
  sf_close(file);
}

// Every frame of `data` (RAM) against the reader's float decode of the file.
int64_t framesDiffering(const SampleData& data, const fs::path& path) {
  std::string error;
  auto reader = AudioFileReader::open(path, error);
  REQUIRE(reader);
  std::vector<float> left(static_cast<std::size_t>(kFrames)), right(left.size());
  REQUIRE(reader->readPlanar(left.data(), right.data(), kFrames) == kFrames);
  int64_t differing = 0;
  for (int64_t i = 0; i < data.framesInRam; ++i) {
    const auto k = static_cast<std::size_t>(i);
    differing += data.frameAt(0, i) != left[k] || (data.channels > 1 && data.frameAt(1, i) != right[k]);
  }
  return differing;
}

}  // namespace

TEST_CASE("frames stay in the file's format in RAM and read back exactly as the float decode") {
  const auto dir = spindle::test::scratchDir("compact-frames");
  struct Case {
    const char* name;
    int format;
    SampleFormat kept;
  };
  const Case cases[] = {
      {"wav16.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, SampleFormat::Int16},
      {"wav24.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, SampleFormat::Int24},
      {"flac16.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, SampleFormat::Int16},
      {"flac24.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_24, SampleFormat::Int24},
      {"float.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, SampleFormat::Float32},
      {"wav32.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_32, SampleFormat::Float32},
  };
  for (const int preload : {-1, 4096}) {
    SamplePool pool(PoolOptions{preload, 0, 0});
    for (const Case& c : cases) {
      CAPTURE(c.name, preload);
      writeNoise(dir / c.name, c.format, 2);
      const SampleData* data = pool.acquire((dir / c.name).string());
      REQUIRE(data != nullptr);
      CHECK(data->format == c.kept);
      CHECK(data->framesInRam == (preload < 0 ? kFrames : preload));
      const auto& record = *pool.find((dir / c.name).string());
      const auto bytesPerValue = static_cast<std::size_t>(c.kept == SampleFormat::Int16 ? 2 : c.kept == SampleFormat::Int24 ? 3 : 4);
      CHECK(record.storageBytes == 2 * bytesPerValue * static_cast<std::size_t>(data->framesInRam + 2 * spindle::limits::kGuardFrames));
      CHECK(framesDiffering(*data, dir / c.name) == 0);
      CHECK(data->frameAt(0, -1) == 0.0f);  // guards read as zeros in every format
      CHECK(data->frameAt(1, data->framesInRam) == 0.0f);
      CHECK(data->table == (c.kept == SampleFormat::Float32 && preload < 0 ? data->frames[0] : nullptr));
    }
  }
}

TEST_CASE("a compact sample gets a float table for oscillator playback on request, counted in RAM") {
  const auto dir = spindle::test::scratchDir("compact-table");
  writeNoise(dir / "cycle.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1);
  writeNoise(dir / "long.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1);
  SamplePool pool(PoolOptions{4096, 0, 0});
  const SampleData* whole = pool.acquire((dir / "cycle.wav").string(), spindle::stream::SampleDirection::Reverse);
  const SampleData* streamed = pool.acquire((dir / "long.wav").string());
  REQUIRE((whole && streamed));
  const std::size_t before = pool.bytesInRam();
  const float* table = pool.makeTable(whole);
  REQUIRE(table != nullptr);
  CHECK(whole->table == table);
  CHECK(pool.bytesInRam() == before + sizeof(float) * static_cast<std::size_t>(kFrames + 2 * spindle::limits::kGuardFrames));
  int64_t differing = 0;
  for (int64_t i = -1; i <= kFrames; ++i) differing += table[i] != whole->frameAt(0, i);
  CHECK(differing == 0);
  CHECK(pool.makeTable(whole) == table);         // made once
  CHECK(pool.makeTable(streamed) == nullptr);    // only a sample held whole is a table
  CHECK(pool.bytesInRam() == before + sizeof(float) * static_cast<std::size_t>(kFrames + 2 * spindle::limits::kGuardFrames));
}

}  // namespace compact_frames_tests
