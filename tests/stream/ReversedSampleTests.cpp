// SamplePool's reversed records (direction=reverse): frames reversed exactly, held whole
// whatever the preload, counted against the memory budget, loops mirrored, and failures
// that name the file once.
#include <algorithm>

#include "TestAudioFiles.h"
#include "catch.h"
#include "core/Limits.h"
#include "stream/SamplePool.h"

namespace reversed_sample_tests {

using spindle::SampleData;
using spindle::stream::PoolMessage;
using spindle::stream::PoolOptions;
using spindle::stream::SampleDirection;
using spindle::stream::SamplePool;

namespace {

constexpr auto kReverse = SampleDirection::Reverse;

// Stereo 16-bit frames: left = i - 15000, right = -(left); each frame distinct.
std::vector<int16_t> stereoRamp(int frames) {
  std::vector<int16_t> out;
  for (int i = 0; i < frames; ++i) {
    out.push_back(static_cast<int16_t>(i - 15000));
    out.push_back(static_cast<int16_t>(15000 - i));
  }
  return out;
}

std::size_t messagesNaming(const SamplePool& pool, const std::string& path) {
  return static_cast<std::size_t>(std::count_if(pool.messages().begin(), pool.messages().end(), [&](const PoolMessage& m) {
    return m.text.find(path) != std::string::npos;
  }));
}

}  // namespace

TEST_CASE("a reversed sample holds the file's frames last to first, whole, beside the streamed forward one") {
  const auto dir = spindle::test::scratchDir("pool-reversed");
  constexpr int kFrames = 30000;
  spindle::test::writeWav16(dir / "ramp.wav", 2, stereoRamp(kFrames), 48000);
  const std::string path = (dir / "ramp.wav").string();
  SamplePool pool(PoolOptions{1024, 256, 0});
  const SampleData* forward = pool.acquire(path);
  const SampleData* reversed = pool.acquire(path, kReverse);
  REQUIRE(forward != nullptr);
  REQUIRE(reversed != nullptr);
  CHECK(forward != reversed);
  CHECK(pool.acquire(path, kReverse) == reversed);  // one record per path and direction
  CHECK(pool.size() == 2);

  CHECK(forward->framesInRam == 1024);  // the forward one streams past its preload
  CHECK(forward->path != nullptr);
  CHECK(reversed->framesInRam == kFrames);  // the reversed one never streams
  CHECK(reversed->totalFrames == kFrames);
  CHECK(reversed->path == nullptr);
  CHECK(pool.streamedCount() == 1);
  bool exact = true;
  for (int i = 0; i < kFrames; ++i) {
    const float left = static_cast<float>(kFrames - 1 - i - 15000) / 32768.0f;
    exact = exact && reversed->frameAt(0, i) == left && reversed->frameAt(1, i) == -left;
  }
  CHECK(exact);
  CHECK(reversed->frameAt(0, 0) == forward->frameAt(0, 0) + static_cast<float>(kFrames - 1) / 32768.0f);
  CHECK(reversed->frameAt(0, -1) == 0.0f);  // guards stay zeros
  CHECK(reversed->frameAt(1, kFrames) == 0.0f);

  const auto* fr = pool.find(path);
  const auto* rr = pool.find(path, kReverse);
  REQUIRE((fr && rr));
  CHECK(rr->direction == kReverse);
  CHECK(rr->data.format == spindle::SampleFormat::Int16);  // a 16-bit file stays 16-bit, reversed too
  CHECK(rr->storageBytes == static_cast<std::size_t>(2 * 2 * (kFrames + 2 * spindle::limits::kGuardFrames)));
  CHECK(pool.bytesInRam() == fr->storageBytes + rr->storageBytes);
}

TEST_CASE("a reversed sample mirrors the file's smpl loop and a generator's table loop") {
  const auto dir = spindle::test::scratchDir("pool-reversed-loop");
  std::vector<int32_t> frames(1000, 1 << 20);
  spindle::test::writeWavInt32(dir / "looped.wav", frames, 44100, 100, 799);
  SamplePool pool;
  const SampleData* forward = pool.acquire((dir / "looped.wav").string());
  const SampleData* reversed = pool.acquire((dir / "looped.wav").string(), kReverse);
  REQUIRE((forward && reversed));
  CHECK(forward->loopStart == 100);
  CHECK(forward->loopEnd == 799);
  CHECK(reversed->loopStart == 200);  // file frames 799..100 = reversed frames 200..899
  CHECK(reversed->loopEnd == 899);

  const SampleData* saw = pool.acquire("*saw");
  const SampleData* sawReversed = pool.acquire("*saw", kReverse);
  REQUIRE((saw && sawReversed));
  CHECK(sawReversed->oscillator);
  CHECK(sawReversed->loopStart == saw->totalFrames - 1 - saw->loopEnd);
  CHECK(sawReversed->loopEnd == saw->totalFrames - 1 - saw->loopStart);
  CHECK(sawReversed->frameAt(0, 0) == saw->frameAt(0, saw->totalFrames - 1));
  CHECK(sawReversed->frameAt(0, saw->totalFrames - 1) == saw->frameAt(0, 0));
}

TEST_CASE("a missing reversed sample is named once; one over the budget says it is held whole") {
  const auto dir = spindle::test::scratchDir("pool-reversed-fail");
  const std::string gone = (dir / "gone.wav").string();
  SamplePool pool;
  CHECK(pool.acquire(gone) == nullptr);
  CHECK(pool.acquire(gone, kReverse) == nullptr);
  CHECK(pool.find(gone, kReverse)->missing);
  CHECK(messagesNaming(pool, gone) == 1);
  SamplePool reversedOnly;
  CHECK(reversedOnly.acquire(gone, kReverse) == nullptr);
  REQUIRE(reversedOnly.messages().size() == 1);
  CHECK(reversedOnly.messages()[0].kind == PoolMessage::Kind::Missing);
  CHECK(reversedOnly.messages()[0].text == "sample file not found: " + gone);

  // 300000 stereo 16-bit frames: 1.1 MiB whole; a preload of 1024 frames fits a 1 MiB budget.
  spindle::test::writeWav16(dir / "big.wav", 2, std::vector<int16_t>(2 * 300000, 7), 48000);
  const std::string big = (dir / "big.wav").string();
  SamplePool tight(PoolOptions{1024, 256, std::size_t{1} << 20});
  CHECK(tight.acquire(big) != nullptr);
  CHECK(tight.acquire(big, kReverse) == nullptr);
  REQUIRE(tight.messages().size() == 1);
  CHECK(tight.messages()[0].kind == PoolMessage::Kind::Unreadable);
  CHECK(tight.messages()[0].text.find(big + " (reversed: direction=reverse) not loaded") != std::string::npos);
  CHECK(tight.messages()[0].text.find("a reversed sample is held whole") != std::string::npos);
  CHECK(tight.bytesInRam() == tight.find(big)->storageBytes);
}

}  // namespace reversed_sample_tests
