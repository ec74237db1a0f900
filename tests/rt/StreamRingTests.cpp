// StreamRing: the ring of frame runs between the disk thread and the audio thread, one
// thread at a time: capacity, the counters crossing 2^64, reset, and FrameRun::read
// (zeros, float, 16-bit and 24-bit frames, mono and stereo).
#include <array>
#include <cstdint>
#include <vector>

#include "StressSupport.h"
#include "catch.h"
#include "rt/StreamRing.h"

namespace stream_ring_tests {

using spindle::SampleFormat;
using spindle::rt::FrameRun;
using spindle::rt::StreamRing;

namespace {
FrameRun run(int64_t first, int32_t frames) {
  FrameRun r;
  r.first = first;
  r.frames = frames;
  return r;
}
}  // namespace

TEST_CASE("StreamRing: empty, exactly full, one past", "[rt][ring]") {
  StreamRing ring;
  CHECK(ring.publishedPosition() == ring.readPosition());
  CHECK_FALSE(ring.full());
  for (uint64_t i = 0; i < StreamRing::kCapacity; ++i) REQUIRE(ring.tryPush(run(static_cast<int64_t>(i) * 10, 10)));
  CHECK(ring.full());
  CHECK_FALSE(ring.tryPush(run(0, 1)));  // refused, not waited for
  CHECK(ring.publishedPosition() - ring.readPosition() == StreamRing::kCapacity);
  CHECK(ring.peek(ring.readPosition() + 5).first == 50);
  ring.consume(3);
  CHECK(ring.consumedPosition() == 3);
  CHECK_FALSE(ring.full());
  for (int64_t first : {1280, 1290, 1300}) REQUIRE(ring.tryPush(run(first, 10)));
  CHECK(ring.pushed(ring.writePosition() - 1).first == 1300);
  CHECK(ring.full());
}

TEST_CASE("StreamRing: counters crossing 2^64", "[rt][ring]") {
  StreamRing ring(spindle::test::kNearWrap);
  int64_t next = 0, checked = 0, wrong = 0;
  for (int round = 0; round < 100; ++round) {  // 100 x 100 runs: far past 2^64
    for (int i = 0; i < 100; ++i) REQUIRE(ring.tryPush(run(next++, 1)));
    for (uint64_t k = ring.readPosition(); k != ring.publishedPosition(); ++k, ++checked)
      wrong += ring.peek(k).first != checked;
    ring.consume(100);
  }
  CHECK(wrong == 0);
  CHECK(checked == 10000);
  CHECK(ring.readPosition() < spindle::test::kNearWrap);  // the counters did wrap
}

TEST_CASE("StreamRing: full at the wrap of the counters", "[rt][ring]") {
  StreamRing ring(~uint64_t{0} - StreamRing::kCapacity / 2);
  for (uint64_t i = 0; i < StreamRing::kCapacity; ++i) REQUIRE(ring.tryPush(run(0, 1)));
  CHECK(ring.full());  // write - read == capacity across 2^64, not "write >= read + capacity"
  ring.consume(1);
  CHECK(ring.tryPush(run(0, 1)));
}

TEST_CASE("StreamRing: reset empties the ring for reuse", "[rt][ring]") {
  StreamRing ring;
  for (int i = 0; i < 10; ++i) REQUIRE(ring.tryPush(run(i, 1)));
  ring.consume(4);
  ring.reset(7);
  CHECK(ring.readPosition() == 7);
  CHECK(ring.publishedPosition() == 7);
  CHECK(ring.writePosition() == 7);
}

TEST_CASE("FrameRun::read converts each format exactly, and a run with no frames reads zeros", "[rt][ring]") {
  const std::array<float, 4> floats{0.5f, -0.25f, 1.0f, -1.0f};
  const std::array<int16_t, 4> shorts{-32768, -1, 1, 32767};
  // 24-bit little-endian: -8388608, -1, 1, 8388607.
  const std::array<uint8_t, 12> packed{0x00, 0x00, 0x80, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x7F};
  std::vector<float> left(3), right(3);

  FrameRun f = run(100, 4);
  f.left = floats.data();
  f.right = floats.data() + 1;  // another channel: here the same values one frame on
  f.read(101, 2, left.data(), right.data());
  CHECK(left[0] == -0.25f);
  CHECK(left[1] == 1.0f);
  f.read(101, 3, left.data(), nullptr);
  CHECK(left == std::vector<float>{-0.25f, 1.0f, -1.0f});
  CHECK(right[0] == 1.0f);
  CHECK(right[1] == -1.0f);

  FrameRun s = run(0, 4);
  s.format = SampleFormat::Int16;
  s.left = s.right = shorts.data();  // mono: both channels read the one
  s.read(0, 3, left.data(), right.data());
  CHECK(left == std::vector<float>{-1.0f, -1.0f / 32768.0f, 1.0f / 32768.0f});
  CHECK(right == left);

  FrameRun p = run(10, 4);
  p.format = SampleFormat::Int24;
  p.left = packed.data();
  p.right = packed.data() + 3;
  p.read(11, 3, left.data(), nullptr);  // nullptr: the left channel only
  CHECK(left == std::vector<float>{-1.0f / 8388608.0f, 1.0f / 8388608.0f, 8388607.0f / 8388608.0f});

  FrameRun z = run(0, 1000);  // past the file's end: no storage at all
  z.read(500, 3, left.data(), right.data());
  CHECK(left == std::vector<float>{0.0f, 0.0f, 0.0f});
  CHECK(right == std::vector<float>{0.0f, 0.0f, 0.0f});
}

}  // namespace stream_ring_tests
