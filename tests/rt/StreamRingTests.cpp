// StreamRing, one thread: geometry, empty/full edges, guard mirror, counters at 2^64.
#include "rt/StreamRing.h"

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "StressSupport.h"
#include "catch.h"

using spindle::rt::StreamRing;
using spindle::test::kNearWrap;

namespace {
constexpr int64_t G = StreamRing::kGuardFrames;

// The value frame n of channel c holds in these tests (exact in float).
float valueOf(uint64_t n, int c) { return static_cast<float>((n & 0xFFFFF) + 0x100000 * static_cast<uint64_t>(c)); }

// Writes frames [from, from + frames) of the test signal through write().
int64_t writeFrames(StreamRing& ring, uint64_t from, int64_t frames) {
  std::vector<float> planar[2];
  for (int c = 0; c < 2; ++c)
    for (int64_t i = 0; i < frames; ++i) planar[c].push_back(valueOf(from + static_cast<uint64_t>(i), c));
  const float* src[2] = {planar[0].data(), planar[1].data()};
  return ring.write(src, frames);
}

// Checks `frames` frames from readPointer() against the signal at readPosition() - offset.
void checkReadable(const StreamRing& ring, int64_t frames, uint64_t offset = 0) {
  for (int c = 0; c < ring.channels(); ++c) {
    const float* p = ring.readPointer(c);
    for (int64_t i = 0; i < frames; ++i) {
      INFO("channel " << c << " frame " << i);
      REQUIRE(p[i] == valueOf(ring.readPosition() - offset + static_cast<uint64_t>(i), c));
    }
  }
}
}  // namespace

TEST_CASE("StreamRing: init validates channels and capacity", "[rt][ring]") {
  StreamRing ring;
  CHECK_THROWS_AS(ring.init(0, 1024), std::invalid_argument);
  CHECK_THROWS_AS(ring.init(3, 1024), std::invalid_argument);
  CHECK_THROWS_AS(ring.init(2, 1000), std::invalid_argument);
  CHECK_THROWS_AS(ring.init(2, G / 2), std::invalid_argument);
  ring.init(2, G);
  CHECK(ring.capacity() == G);
  CHECK(ring.channels() == 2);
}

TEST_CASE("StreamRing: empty, exactly full, one past", "[rt][ring]") {
  StreamRing ring(2, 256);
  CHECK(ring.readableFrames() == 0);
  CHECK(ring.readContiguous() == 0);
  CHECK(ring.writableFrames() == 256);
  CHECK(ring.writeContiguous() == 256);

  CHECK(writeFrames(ring, 0, 256) == 256);  // exactly full
  CHECK(ring.readableFrames() == 256);
  CHECK(ring.writableFrames() == 0);
  CHECK(ring.writeContiguous() == 0);
  CHECK(writeFrames(ring, 256, 1) == 0);    // one past: refused
  CHECK(ring.writeSilence(5) == 0);
  checkReadable(ring, 256);

  ring.consume(1);
  CHECK(ring.writableFrames() == 1);
  CHECK(writeFrames(ring, 256, 10) == 1);   // only the one free frame
  CHECK(ring.readableFrames() == 256);
  checkReadable(ring, ring.readContiguous());
  ring.consume(256);
  CHECK(ring.readableFrames() == 0);
  CHECK(ring.writableFrames() == 256);
  CHECK(ring.readPosition() == 257);
  CHECK(ring.writePosition() == 257);
}

TEST_CASE("StreamRing: a span crossing the wrap reads through the guard", "[rt][ring]") {
  StreamRing ring(2, 64);
  REQUIRE(writeFrames(ring, 0, 48) == 48);
  ring.consume(48);
  // Positions 48..63, then 0..23 after the wrap.
  REQUIRE(writeFrames(ring, 48, 40) == 40);
  REQUIRE(ring.readableFrames() == 40);
  REQUIRE(ring.readContiguous() == 40);  // 16 before the wrap + 24 <= G after it
  checkReadable(ring, 40);

  // The guard holds exactly the committed head frames, and only those.
  for (int c = 0; c < 2; ++c)
    for (int64_t j = 0; j < 24; ++j) CHECK(ring.readPointer(c)[16 + j] == valueOf(64 + static_cast<uint64_t>(j), c));

  // More than G frames past the wrap: the contiguous span stops at the guard's end.
  REQUIRE(writeFrames(ring, 88, 24) == 24);
  CHECK(ring.readableFrames() == 64);
  CHECK(ring.readContiguous() == 64 - 48 + G);
  checkReadable(ring, ring.readContiguous());
  ring.consume(16);
  CHECK(ring.readContiguous() == 48);
  checkReadable(ring, 48);
}

TEST_CASE("StreamRing: writePointer + commitWrite mirror the head too", "[rt][ring]") {
  StreamRing ring(2, 64);
  REQUIRE(writeFrames(ring, 0, 50) == 50);
  ring.consume(50);
  uint64_t next = 50;
  while (ring.writableFrames() > 0) {
    const int64_t n = std::min<int64_t>(ring.writeContiguous(), 9);
    REQUIRE(n > 0);
    for (int c = 0; c < 2; ++c)
      for (int64_t i = 0; i < n; ++i) ring.writePointer(c)[i] = valueOf(next + static_cast<uint64_t>(i), c);
    ring.commitWrite(n);
    next += static_cast<uint64_t>(n);
  }
  REQUIRE(ring.readableFrames() == 64);
  REQUIRE(ring.readContiguous() == 64 - 50 + G);
  checkReadable(ring, ring.readContiguous());
}

TEST_CASE("StreamRing: writeInterleaved and writeSilence", "[rt][ring]") {
  StreamRing ring(2, 64);
  REQUIRE(ring.writeSilence(60) == 60);
  ring.consume(60);
  std::vector<float> interleaved;
  for (uint64_t n = 60; n < 90; ++n) {
    interleaved.push_back(valueOf(n, 0));
    interleaved.push_back(valueOf(n, 1));
  }
  REQUIRE(ring.writeInterleaved(interleaved.data(), 30) == 30);  // positions 60..63, 0..25
  REQUIRE(ring.readContiguous() == 30);
  checkReadable(ring, 30);
  ring.consume(30);

  // Silence that crosses the wrap is mirrored as zeros over the old guard contents.
  REQUIRE(writeFrames(ring, 90, 30) == 30);  // positions 26..55
  ring.consume(30);
  REQUIRE(ring.writeSilence(20) == 20);       // positions 56..63, 0..11
  for (int c = 0; c < 2; ++c)
    for (int64_t i = 0; i < 20; ++i) CHECK(ring.readPointer(c)[i] == 0.0f);
}

TEST_CASE("StreamRing: mono aliases channel 1 to channel 0", "[rt][ring]") {
  StreamRing ring(1, 64);
  CHECK(ring.readPointer(1) == ring.readPointer(0));
  CHECK(ring.writePointer(1) == ring.writePointer(0));
  std::vector<float> mono;
  for (uint64_t n = 0; n < 64; ++n) mono.push_back(valueOf(n, 0));
  const float* src[1] = {mono.data()};
  REQUIRE(ring.write(src, 64) == 64);
  ring.consume(60);
  REQUIRE(ring.write(src, 8) == 8);  // positions 0..7 hold values 0..7 again, guard too
  REQUIRE(ring.readContiguous() == 12);
  for (int64_t i = 0; i < 4; ++i) CHECK(ring.readPointer(1)[i] == valueOf(60 + static_cast<uint64_t>(i), 0));
  for (int64_t i = 0; i < 8; ++i) CHECK(ring.readPointer(1)[4 + i] == valueOf(static_cast<uint64_t>(i), 0));
}

TEST_CASE("StreamRing: counters crossing 2^64", "[rt][ring]") {
  for (const uint64_t start : {~uint64_t{0} - 19, ~uint64_t{0}, kNearWrap}) {
    StreamRing ring(2, 64, start);
    CHECK(ring.readableFrames() == 0);
    CHECK(ring.writableFrames() == 64);
    uint64_t written = start, read = start;
    // Fill and drain in uneven steps, far enough to cross 2^64 wherever we start.
    for (int step = 0; step < 800; ++step) {
      written += static_cast<uint64_t>(writeFrames(ring, written, 1 + step % 29));
      REQUIRE(ring.writePosition() == written);
      REQUIRE(ring.readableFrames() == static_cast<int64_t>(written - read));
      REQUIRE(ring.writableFrames() == 64 - static_cast<int64_t>(written - read));
      const int64_t n = std::min<int64_t>(ring.readContiguous(), 1 + step % 23);
      checkReadable(ring, n);
      ring.consume(n);
      read += static_cast<uint64_t>(n);
      REQUIRE(ring.readPosition() == read);
    }
    CHECK(read - start > 4096);  // the counters did cross the wrap
  }
}

TEST_CASE("StreamRing: full at the wrap of the counters", "[rt][ring]") {
  StreamRing ring(2, 32, ~uint64_t{0} - 15);  // full ring spans the 2^64 wrap
  REQUIRE(writeFrames(ring, ~uint64_t{0} - 15, 32) == 32);
  CHECK(ring.writePosition() == 16);
  CHECK(ring.writableFrames() == 0);
  CHECK(ring.readableFrames() == 32);
  CHECK(writeFrames(ring, 16, 1) == 0);
  CHECK(ring.readContiguous() == 32);
  checkReadable(ring, 32);
}

TEST_CASE("StreamRing: reset empties the ring for reuse", "[rt][ring]") {
  StreamRing ring(2, 64);
  REQUIRE(writeFrames(ring, 0, 50) == 50);
  ring.consume(10);
  ring.reset();
  CHECK(ring.readableFrames() == 0);
  CHECK(ring.writableFrames() == 64);
  CHECK(ring.readPosition() == 0);
  ring.reset(kNearWrap);
  CHECK(ring.writePosition() == kNearWrap);
  REQUIRE(writeFrames(ring, kNearWrap, 64) == 64);
  checkReadable(ring, ring.readContiguous());
}

// A loop exit (stream/DiskStream.cpp) takes back frames read ahead with the old loop
// and writes others where they were, the head's guard copy included.
TEST_CASE("StreamRing: retractWrite takes back the last frames committed", "[rt][ring]") {
  StreamRing ring(2, 64);
  REQUIRE(writeFrames(ring, 0, 60) == 60);
  ring.consume(40);
  REQUIRE(writeFrames(ring, 60, 30) == 30);  // counters 60..89: positions 60..63, 0..25
  ring.retractWrite(20);                     // counters 70..89 (positions 6..25) taken back
  CHECK(ring.writePosition() == 70);
  CHECK(ring.readableFrames() == 30);
  CHECK(ring.writableFrames() == 34);
  REQUIRE(writeFrames(ring, 1070, 20) == 20);  // counters 70..89 again, other values
  REQUIRE(ring.readContiguous() == 50);        // 40..89 as one array, through the guard
  checkReadable(ring, 30);                     // 40..69: kept
  for (int c = 0; c < 2; ++c)
    for (int64_t i = 30; i < 50; ++i) CHECK(ring.readPointer(c)[i] == valueOf(1000 + 40 + static_cast<uint64_t>(i), c));
}
