// An offline render with no disk thread (DiskOptions::threaded false, spindle-render):
// no ring is filled, each read of a voice copies its frames from the decoded blocks
// (rt::StreamBank::readNow -> DiskThread::readFor -> DiskStream::read). Driven here by
// a test-side voice: short reads that overlap by their taps, as Voice::interpolate's.
#include <algorithm>
#include <filesystem>
#include <vector>

#include "StreamTestSupport.h"
#include "catch.h"
#include "core/LoopMap.h"
#include "engine/StreamReader.h"
#include "rt/StreamBank.h"
#include "stream/DiskThread.h"
#include "stream/SamplePool.h"

using namespace spindle;
using spindle::stream::DiskOptions;
using spindle::stream::DiskThread;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;

namespace {
constexpr int64_t kGuard = limits::kGuardFrames;
constexpr int kRead = 70;  // one chunk's frames and taps
constexpr int kStep = 64;  // the next chunk starts this far on: reads overlap by 6 frames

struct Rig {
  static DiskOptions unthreaded() {
    DiskOptions options;
    options.threaded = false;
    return options;
  }
  explicit Rig(int streams = 4) : bank(streams, kGuard, 0), disk(bank, unthreaded()) {}
  rt::StreamBank bank;  // rings of kGuardFrames: never written
  DiskThread disk;
};


// Reads unrolled [from, to) in overlapping chunks; counts frames unlike the in-RAM ones
// and reads that came back short.
struct Played {
  int wrong = 0, short_ = 0;
};
Played play(engine::StreamReader& reader, const SampleData& whole, const LoopMap& map, int64_t from, int64_t to) {
  Played out;
  std::vector<float> left(kRead), right(kRead);
  for (int64_t u = from; u < to; u += kStep) {
    const int want = static_cast<int>(std::min<int64_t>(kRead, to - u));
    const int got = reader.copy(u, want, left.data(), right.data());
    out.short_ += got < want;
    for (int k = 0; k < got; ++k)
      out.wrong += (left[static_cast<std::size_t>(k)] != test::inRamFrame(whole, map, u + k, 0)) +
                   (right[static_cast<std::size_t>(k)] != test::inRamFrame(whole, map, u + k, 1));
  }
  return out;
}
}  // namespace

TEST_CASE("no disk thread: a voice's overlapping reads copy exact frames, each block pinned and decoded once",
          "[stream][disk][direct]") {
  const auto dir = test::scratchDir("direct-plain");
  test::writeTestWav(dir / "long.wav", 2, 40000);
  // A preload of 1022: every block boundary b then falls 4 frames before the end of a
  // read, [b - 66, b + 4), and the next read, [b - 2, b + 68), starts in the block before.
  SamplePool ram(PoolOptions{-1}), head(PoolOptions{1022, 0});
  const SampleData* whole = ram.acquire((dir / "long.wav").string());
  const SampleData* part = head.acquire((dir / "long.wav").string());
  REQUIRE(part->framesInRam == 1022);
  Rig rig;
  REQUIRE(rig.bank.readsOnWaitingThread());
  engine::StreamReader reader;
  const int64_t last = 40000 - 1 + kGuard;
  REQUIRE(reader.open(&rig.bank, part, LoopMap{}, 1022, last));
  const Played played = play(reader, *whole, LoopMap{}, 1022, last + 1);
  CHECK(played.wrong == 0);
  CHECK(played.short_ == 0);
  std::vector<float> left(kRead), right(kRead);
  CHECK(reader.copy(last + 1, kRead, left.data(), right.data()) == 0);  // nothing past the stream's last frame
  CHECK(rig.bank.slot(0).ring.writePosition() == 0);                 // no ring was written
  reader.close();
  rig.bank.waitUntilReady();  // takes the Release
  rig.bank.endBlock();        // takes the slot back
  const auto& counters = rig.disk.counters();
  // Blocks 0..4 (8192 frames each), decoded once: the 4 reads that reach back across
  // a boundary take their taps from the block before, still pinned, not by pinning it
  // again (which had counted 8 hits and marked each block as used twice).
  CHECK(counters.framesDecoded.load() == 40000);
  CHECK(counters.blockMisses.load() == 5);
  CHECK(counters.blockHits.load() == 0);
  CHECK(counters.framesConsumed.load() == static_cast<uint64_t>(last + 1 - 1022));
  CHECK(rig.bank.slotsInUse() == 0);
}

TEST_CASE("no disk thread: a loop_sustain exit is followed from the exit point on", "[stream][disk][direct]") {
  const auto dir = test::scratchDir("direct-exit");
  test::writeTestWav(dir / "sus.wav", 2, 40000);
  SamplePool ram(PoolOptions{-1}), head(PoolOptions{1000, 0});
  const SampleData* whole = ram.acquire((dir / "sus.wav").string());
  const SampleData* part = head.acquire((dir / "sus.wav").string());
  const LoopMap looping{500, 2501, LoopMap::kForever};  // 500..3000, inside the first block
  Rig rig;
  engine::StreamReader reader;
  REQUIRE(reader.open(&rig.bank, part, looping, 1000, LoopMap::kEndless));
  const Played before = play(reader, *whole, looping, 1000, 5000);  // into cycle 1
  LoopMap released = looping;
  released.wraps = released.cycleOf(5000);
  const int64_t last = 39999 + released.wraps * released.loopLength + kGuard;
  reader.exit(released, released.exitPoint(), last);
  const Played after = play(reader, *whole, released, 5000, last + 1);
  CHECK(before.wrong == 0);
  CHECK(after.wrong == 0);
  CHECK(before.short_ + after.short_ == 0);
  reader.close();
}

TEST_CASE("no disk thread: a file gone before its stream opens gives no frames and a failure",
          "[stream][disk][direct]") {
  const auto dir = test::scratchDir("direct-missing");
  test::writeTestWav(dir / "gone.wav", 1, 20000);
  SamplePool head(PoolOptions{1000, 0});
  const SampleData* part = head.acquire((dir / "gone.wav").string());
  std::filesystem::remove(dir / "gone.wav");
  Rig rig;
  engine::StreamReader reader;
  REQUIRE(reader.open(&rig.bank, part, LoopMap{}, 1000, 20000));
  std::vector<float> left(kRead), right(kRead);
  CHECK(reader.copy(1000, kRead, left.data(), right.data()) == 0);
  CHECK(reader.complete());  // the voice ends (SampleSource::starved)
  CHECK(rig.disk.counters().failures.load() == 1);
  const auto errors = rig.disk.takeErrors();
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("gone.wav") != std::string::npos);
  reader.close();
}
