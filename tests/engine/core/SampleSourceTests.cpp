// SampleSource and LoopMap: unrolled frames, loop wraps, exits and short spans.
#include <vector>

#include "EngineTestSupport.h"
#include "catch.h"
#include "engine/voices/SampleSource.h"

namespace sample_source_tests {

using namespace spindle;
using namespace spindle::engine;
using spindle::test::TestSample;

namespace {
struct Scratch {
  std::vector<float> l = std::vector<float>(4096), r = std::vector<float>(4096);
  SourceScratch get() { return {l.data(), r.data(), 4096}; }
};
}  // namespace

TEST_CASE("LoopMap maps unrolled frames through wraps and the exit", "[engine][source]") {
  const LoopMap map{10, 5, 2};  // loop 10..14, two jumps back, then on past 14
  CHECK(map.locate(3).frame == 3);
  CHECK(map.locate(3).length == 12);
  CHECK(map.locate(14).frame == 14);
  CHECK(map.locate(15).frame == 10);  // first wrap
  CHECK(map.locate(15).length == 5);
  CHECK(map.locate(19).frame == 14);
  CHECK(map.locate(20).frame == 10);  // second wrap
  CHECK(map.locate(25).frame == 15);  // exit: runs on past the loop end
  CHECK(map.locate(25).length > 1000);
  CHECK(map.cycleOf(14) == 0);
  CHECK(map.cycleOf(22) == 2);
}

TEST_CASE("SampleSource spans: in place, across wraps, and short when the data runs out", "[engine][source]") {
  TestSample s(test::ramp(100));
  Scratch scratch;
  SampleSource src;
  src.start({&s.data, 99, LoopMap{20, 10, LoopMap::kForever}}, scratch.get());

  SourceSpan a = src.read(-4, 20);  // before the start: guard zeros, read in place
  REQUIRE(a.count == 20);
  CHECK(a.left == static_cast<const float*>(s.data.frames[0]) - 4);
  CHECK(a.left[3] == 0.0f);
  CHECK(a.left[4] == 0.0f);
  CHECK(a.left[5] == 1.0f);

  SourceSpan b = src.read(25, 40);  // crosses wraps: copied, unrolled
  REQUIRE(b.count == 40);
  for (int k = 0; k < 40; ++k) {
    const int u = 25 + k;
    const int expected = u < 30 ? u : 20 + (u - 20) % 10;
    CHECK(b.left[k] == static_cast<float>(expected));
  }
  CHECK(src.endPosition() == INT64_MAX);

  src.leaveLoop(47);  // cycle 2 (u 40..49) is the last
  CHECK(src.endPosition() == 99 + 2 * 10);
  SourceSpan c = src.read(45, 10);
  for (int k = 0; k < 10; ++k) CHECK(c.left[k] == static_cast<float>(25 + k));

  TestSample partial(test::ramp(100));
  partial.data.framesInRam = 50;  // the rest would stream
  src.start({&partial.data, 99, LoopMap{}}, scratch.get());
  SourceSpan d = src.read(40, 20);
  CHECK(d.count == 10);
  CHECK(d.left[9] == 49.0f);
}

TEST_CASE("SampleSource with a loop_crossfade tail: blended windows, and a release exit", "[engine][source][xfade]") {
  TestSample s(test::ramp(300));
  Region region;
  region.loopModeSet = true, region.loopMode = LoopMode::LoopSustain;
  region.loopStart = 100, region.loopEnd = 199, region.loopCrossfade = 0.5f;  // 0.5 s at 48 Hz: X = 24
  s.data.sampleRate = 48.0;
  const LoopTail tail = loopTailFromRam(region, s.data);
  REQUIRE(tail.frames == 24);
  CHECK(tail.left[23] == 99.0f);  // frame ls - 1: the jump back lands without a repeat
  Scratch scratch;
  SampleSource src;
  const auto played = [&](int64_t u) { return src.read(u, 1).left[0]; };

  // Released well before cycle 2's window (u 376..399): cycle 2 is the exit, unblended.
  src.start({&s.data, 299, LoopMap{100, 100, LoopMap::kForever}, 0, &tail}, scratch.get());
  SourceSpan a = src.read(170, 40);  // cycle 0's window (176..199) and the jump back
  for (int k = 0; k < 40; ++k) {
    const int64_t u = 170 + k;
    CHECK(a.left[k] == (u < 176 ? static_cast<float>(u) : u < 200 ? tail.left[static_cast<size_t>(u - 176)] : float(u - 100)));
  }
  src.leaveLoop(320);
  CHECK(src.endPosition() == 299 + 2 * 100);
  for (int64_t u = 376; u < 420; ++u) CHECK(played(u) == static_cast<float>(u - 200));  // on past the loop end

  // Released inside cycle 1's window (u 276..299): it finishes its blend, jumps back,
  // and cycle 2 is the exit.
  src.start({&s.data, 299, LoopMap{100, 100, LoopMap::kForever}, 0, &tail}, scratch.get());
  src.leaveLoop(280);
  CHECK(src.endPosition() == 299 + 2 * 100);
  CHECK(played(290) == tail.left[290 - 276]);
  CHECK(played(300) == 100.0f);
  CHECK(played(399) == 199.0f);

  // A loop the tail was not built for (count repeats) plays the file's frames.
  src.start({&s.data, 299, LoopMap{0, 300, 2}, 0, &tail}, scratch.get());
  CHECK(played(190) == 190.0f);
}

}  // namespace sample_source_tests
