// SamplePool and AudioFileReader on files whose length the header does not state, and
// libraries larger than the pool's memory budget (found by fuzzing and fault injection).
#include <sndfile.h>

#include <fstream>
#include <vector>

#include "TestAudioFiles.h"
#include "catch.h"
#include "stream/AudioFile.h"
#include "stream/SamplePool.h"

namespace length_and_budget_tests {

using spindle::stream::AudioFileReader;
using spindle::stream::PoolMessage;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;

namespace {

// A mono 16-bit FLAC file of `frames` frames, written by libsndfile, then with its
// STREAMINFO total-samples field zeroed, as encoders writing to a pipe leave it.
void writeFlacOfUnknownLength(const std::filesystem::path& path, int frames) {
  SF_INFO info{};
  info.samplerate = 48000;
  info.channels = 1;
  info.format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  REQUIRE(file);
  std::vector<float> ramp(static_cast<std::size_t>(frames));
  for (int i = 0; i < frames; ++i) ramp[static_cast<std::size_t>(i)] = static_cast<float>(i % 100) / 200.0f;
  REQUIRE(sf_writef_float(file, ramp.data(), frames) == frames);
  sf_close(file);
  // "fLaC", a 4-byte block header, then STREAMINFO: the 36-bit total is the low nibble
  // of byte 21 and bytes 22..25 of the file.
  std::fstream patch(path, std::ios::in | std::ios::out | std::ios::binary);
  char byte21 = 0;
  patch.seekg(21);
  patch.get(byte21);
  patch.seekp(21);
  const char zeros[5] = {static_cast<char>(byte21 & 0xF0), 0, 0, 0, 0};
  patch.write(zeros, 5);
}

void writeMonoWav(const std::filesystem::path& path, int frames) {
  spindle::test::writeWav16(path, 1, std::vector<int16_t>(static_cast<std::size_t>(frames), 1000), 48000);
}

}  // namespace

TEST_CASE("a FLAC file that does not state its length is counted, not sized as 2^63 frames") {
  // Found by fuzz_audio_file: libsndfile reports SF_COUNT_MAX frames for it, and a
  // whole-file load overflowed computing its buffer size.
  const auto dir = spindle::test::scratchDir("unknown-length");
  writeFlacOfUnknownLength(dir / "pipe.flac", 20000);
  std::string error;
  const auto reader = AudioFileReader::open(dir / "pipe.flac", error);
  REQUIRE(reader);
  CHECK(reader->info().frames == 20000);
  std::vector<float> left(20000);
  CHECK(reader->readPlanar(left.data(), nullptr, 20000) == 20000);  // rewound after counting
  CHECK(left[150] == Approx(0.25f).margin(1e-3));
  // With no stated length the reader cannot bisect: it rewinds and decodes up to the frame.
  REQUIRE(reader->seek(12345));
  CHECK(reader->readPlanar(left.data(), nullptr, 10000) == 7655);
  CHECK(left[5] == Approx(0.25f).margin(1e-3));  // frame 12350: 50 / 200
  REQUIRE(reader->seek(0));
  CHECK(reader->readPlanar(left.data(), nullptr, 300) == 300);
  CHECK(left[150] == Approx(0.25f).margin(1e-3));

  for (const int64_t preload : {int64_t{-1}, int64_t{4096}}) {
    SamplePool pool(PoolOptions{preload, 4096});
    const auto* sample = pool.acquire((dir / "pipe.flac").string());
    REQUIRE(sample);
    CHECK(sample->totalFrames == 20000);
    CHECK(sample->framesInRam == (preload < 0 ? 20000 : 4096));
  }
}

TEST_CASE("a library over the memory budget loads what fits and names every file refused") {
  const auto dir = spindle::test::scratchDir("budget");
  for (const char* name : {"a.wav", "b.wav", "c.wav"}) writeMonoWav(dir / name, 200000);
  // One whole 16-bit file takes ~400 KB (it stays 16-bit in RAM): a 1 MiB budget holds two of the three.
  SamplePool pool(PoolOptions{-1, 0, 1u << 20});
  CHECK(pool.memoryBudget() == (1u << 20));
  CHECK(pool.acquire((dir / "a.wav").string()));
  CHECK(pool.acquire((dir / "b.wav").string()));
  CHECK_FALSE(pool.acquire((dir / "c.wav").string()));
  CHECK(pool.bytesInRam() <= pool.memoryBudget());
  REQUIRE(pool.messages().size() == 1);
  const PoolMessage& refused = pool.messages()[0];
  CHECK(refused.kind == PoolMessage::Kind::Unreadable);
  CHECK(refused.text.find((dir / "c.wav").string()) != std::string::npos);
  CHECK(refused.text.find("memory budget of 1 MiB") != std::string::npos);

  SECTION("with a preload the same library streams and fits") {
    SamplePool streamed(PoolOptions{4096, 4096, 1u << 20});
    for (const char* name : {"a.wav", "b.wav", "c.wav"}) CHECK(streamed.acquire((dir / name).string()));
    CHECK(streamed.messages().empty());
  }
}

TEST_CASE("the default memory budget is half the physical memory") {
  SamplePool pool;
  CHECK(pool.memoryBudget() == spindle::stream::defaultMemoryBudget());
  CHECK(pool.memoryBudget() > (64u << 20));
}

}  // namespace length_and_budget_tests
