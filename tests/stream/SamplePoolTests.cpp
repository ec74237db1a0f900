// SamplePool on files the test writes itself: decoding, loops, guards, failures.
#include <fstream>

#include "TestAudioFiles.h"
#include "catch.h"
#include "core/Limits.h"
#include "stream/SamplePool.h"

namespace sample_pool_tests {

using spindle::SampleData;
using spindle::limits::kGuardFrames;
using spindle::stream::PoolMessage;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;

namespace {

constexpr int32_t kStep = 1 << 18;  // ramp32 steps: +-2500 * 2^18 stays inside int32

bool guardsAreZero(const SampleData& data) {
  for (int c = 0; c < 2; ++c)
    for (int i = 1; i <= kGuardFrames; ++i)
      if (data.frameAt(c, -i) != 0.0f || data.frameAt(c, data.framesInRam - 1 + i) != 0.0f) return false;
  return true;
}

std::vector<int32_t> ramp32(int frames) {
  std::vector<int32_t> out;
  for (int i = 0; i < frames; ++i) out.push_back((i - frames / 2) * kStep);
  return out;
}

}  // namespace

TEST_CASE("32-bit integer WAV decodes exactly, with its smpl loop end kept inclusive") {
  const auto dir = spindle::test::scratchDir("pool-int32");
  spindle::test::writeWavInt32(dir / "ramp.wav", ramp32(1000), 44100, 100, 899);
  SamplePool pool;
  const SampleData* data = pool.acquire((dir / "ramp.wav").string());
  REQUIRE(data != nullptr);
  CHECK(data->totalFrames == 1000);
  CHECK(data->framesInRam == 1000);
  CHECK(data->channels == 1);
  CHECK(data->sampleRate == 44100.0);
  CHECK(data->loopStart == 100);
  CHECK(data->loopEnd == 899);
  CHECK(data->frames[1] == data->frames[0]);  // mono: both channels read the same frames
  CHECK(data->frameAt(0, 0) == Approx(-500.0 * kStep / 2147483648.0));
  CHECK(data->frameAt(0, 999) == Approx(499.0 * kStep / 2147483648.0));
  CHECK(guardsAreZero(*data));
  CHECK(pool.record(data->id).formatName == "WAV PCM_32");
  CHECK(pool.messages().empty());
}

TEST_CASE("a loop end past the last frame is clamped to the last frame") {
  const auto dir = spindle::test::scratchDir("pool-loop-clamp");
  spindle::test::writeWavInt32(dir / "wrap.wav", ramp32(64), 48000, 0, 64);
  SamplePool pool;
  const SampleData* data = pool.acquire((dir / "wrap.wav").string());
  REQUIRE(data != nullptr);
  CHECK(data->loopStart == 0);
  CHECK(data->loopEnd == 63);
}

TEST_CASE("stereo AIFF decodes into two planar channels") {
  const auto dir = spindle::test::scratchDir("pool-aiff");
  std::vector<int16_t> left, right;
  for (int i = 0; i < 300; ++i) {
    left.push_back(static_cast<int16_t>(i * 100));
    right.push_back(static_cast<int16_t>(-i * 100));
  }
  spindle::test::writeAiff16(dir / "stereo.aiff", left, right, 22050);
  SamplePool pool;
  const SampleData* data = pool.acquire((dir / "stereo.aiff").string());
  REQUIRE(data != nullptr);
  CHECK(data->channels == 2);
  CHECK(data->totalFrames == 300);
  CHECK(data->sampleRate == 22050.0);
  CHECK(data->loopStart == -1);
  CHECK(data->frames[0] != data->frames[1]);
  CHECK(data->frameAt(0, 299) == Approx(29900.0 / 32768.0));
  CHECK(data->frameAt(1, 299) == Approx(-29900.0 / 32768.0));
  CHECK(guardsAreZero(*data));
  CHECK(pool.record(data->id).formatName == "AIFF PCM_16");
}

TEST_CASE("a file of more than two channels gives its first two, with a warning") {
  const auto dir = spindle::test::scratchDir("pool-quad");
  std::vector<int16_t> interleaved;
  for (int i = 0; i < 50; ++i)
    for (int c = 0; c < 4; ++c) interleaved.push_back(static_cast<int16_t>(1000 * (c + 1) + i));
  spindle::test::writeWav16(dir / "quad.wav", 4, interleaved, 48000);
  SamplePool pool;
  const std::string path = (dir / "quad.wav").string();
  const SampleData* data = pool.acquire(path);
  REQUIRE(data != nullptr);
  CHECK(data->channels == 2);
  CHECK(pool.record(data->id).fileChannels == 4);
  CHECK(data->totalFrames == 50);
  CHECK(data->frameAt(0, 49) == Approx(1049.0 / 32768.0));
  CHECK(data->frameAt(1, 49) == Approx(2049.0 / 32768.0));
  CHECK(guardsAreZero(*data));
  REQUIRE(pool.messages().size() == 1);
  CHECK(pool.messages()[0].kind == PoolMessage::Kind::Warning);
  CHECK(pool.messages()[0].text == "sample file " + path + " has 4 channels; using the first two");
}

TEST_CASE("identical paths load once and share one SampleData") {
  const auto dir = spindle::test::scratchDir("pool-dedupe");
  spindle::test::writeWavInt32(dir / "a.wav", ramp32(10), 44100, 0, 9);
  SamplePool pool;
  const std::string path = (dir / "a.wav").string();
  const auto all = pool.acquireAll({path, "*sine", path, "*sine"});
  REQUIRE(all.size() == 4);
  CHECK(all[0] == all[2]);
  CHECK(all[1] == all[3]);
  CHECK(all[0] != all[1]);
  CHECK(pool.size() == 2);
  CHECK(pool.loadedCount() == 2);
  CHECK(all[0]->id == 0);
  CHECK(all[1]->id == 1);
}

TEST_CASE("a missing file is reported once and the rest still loads") {
  const auto dir = spindle::test::scratchDir("pool-missing");
  spindle::test::writeWavInt32(dir / "here.wav", ramp32(10), 44100, 0, 9);
  SamplePool pool;
  const std::string missing = (dir / "not here.wav").string();
  const auto all = pool.acquireAll({missing, (dir / "here.wav").string(), missing});
  CHECK(all[0] == nullptr);
  CHECK(all[1] != nullptr);
  CHECK(all[2] == nullptr);
  REQUIRE(pool.messages().size() == 1);
  CHECK(pool.messages()[0].kind == PoolMessage::Kind::Missing);
  CHECK(pool.messages()[0].text.find(missing) != std::string::npos);
  CHECK(pool.find(missing)->missing);
}

TEST_CASE("an unreadable file gives an error naming it and libsndfile's reason") {
  const auto dir = spindle::test::scratchDir("pool-unreadable");
  std::ofstream(dir / "text.wav") << "this is not audio at all, just some words in a file";
  SamplePool pool;
  const std::string path = (dir / "text.wav").string();
  CHECK(pool.acquire(path) == nullptr);
  REQUIRE(pool.messages().size() == 1);
  const PoolMessage& message = pool.messages()[0];
  CHECK(message.kind == PoolMessage::Kind::Unreadable);
  CHECK(message.text.find(path) != std::string::npos);
  CHECK(message.text.find("ormat") != std::string::npos);  // "Format not recognised." or similar
  CHECK(!pool.find(path)->missing);
}

TEST_CASE("with a preload limit only the head is in RAM, guards after it") {
  const auto dir = spindle::test::scratchDir("pool-preload");
  spindle::test::writeWavInt32(dir / "long.wav", ramp32(5000), 44100, 10, 4000);
  SamplePool pool(PoolOptions{1000});
  const SampleData* data = pool.acquire((dir / "long.wav").string());
  REQUIRE(data != nullptr);
  CHECK(data->framesInRam == 1000);
  CHECK(data->totalFrames == 5000);
  CHECK(data->loopEnd == 4000);
  CHECK(data->frameAt(0, 999) == Approx(-1501.0 * kStep / 2147483648.0));
  CHECK(guardsAreZero(*data));
  CHECK(pool.bytesInRam() == sizeof(float) * (1000 + 2 * kGuardFrames));
}

}  // namespace sample_pool_tests
