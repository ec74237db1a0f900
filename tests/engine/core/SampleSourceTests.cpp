// SampleSource and LoopMap: unrolled frames, loop wraps, exits and short spans.
#include <vector>

#include "EngineTestSupport.h"
#include "catch.h"
#include "engine/SampleSource.h"

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
  CHECK(a.left == s.data.channel[0] - 4);
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
