// A voice reads its stream's frames in place: the runs the disk pushes point into the
// decoded blocks (and the preload), and the voice's reads copy (16-bit blocks,
// converted) or take pointers (float blocks) from them. Driven here by a test-side
// voice (short reads that overlap by their taps, as Voice::interpolate's) over a disk
// with no thread (DiskOptions::threaded false, as spindle-render has), prepared before
// each read as Engine::processWaiting prepares each stretch.
#include <algorithm>
#include <filesystem>
#include <vector>

#include "StreamTestSupport.h"
#include "catch.h"
#include "core/LoopMap.h"
#include "engine/voices/StreamReader.h"
#include "rt/StreamBank.h"
#include "stream/DiskThread.h"
#include "stream/SamplePool.h"

namespace voice_read_tests {

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
  explicit Rig(int streams = 4) : bank(streams), disk(bank, unthreaded()) {}
  rt::StreamBank bank;
  DiskThread disk;
};

// Reads unrolled [from, to) in overlapping chunks, as a voice in a waiting render does;
// counts frames unlike the in-RAM ones, reads that came back short and reads taken in
// place (no copy).
struct Played {
  int wrong = 0, short_ = 0, inPlace = 0, reads = 0;
};
Played play(engine::StreamReader& reader, rt::StreamBank& bank, const SampleData& whole, const LoopMap& map,
            int64_t from, int64_t to) {
  Played out;
  std::vector<float> left(kRead), right(kRead);
  for (int64_t u = from; u < to; u += kStep) {
    const int want = static_cast<int>(std::min<int64_t>(kRead, to - u));
    bank.prepare(kStep);
    reader.advance(u, u + want);
    const float* l = nullptr;
    const float* r = nullptr;
    int got = want;
    if (reader.direct(u, want, l, r)) {
      ++out.inPlace;
      std::copy_n(l, want, left.begin());
      std::copy_n(r, want, right.begin());
    } else {
      got = reader.copy(u, want, left.data(), right.data());
    }
    out.short_ += got < want;
    ++out.reads;
    for (int k = 0; k < got; ++k)
      out.wrong += (left[static_cast<std::size_t>(k)] != test::inRamFrame(whole, map, u + k, 0)) +
                   (right[static_cast<std::size_t>(k)] != test::inRamFrame(whole, map, u + k, 1));
    bank.endBlock(kStep);
  }
  return out;
}
}  // namespace

TEST_CASE("a voice's overlapping reads of runs give exact frames; each block decoded once, unpinned once read",
          "[stream][disk][runs]") {
  const auto dir = test::scratchDir("runs-plain");
  test::writeTestWav(dir / "long16.wav", 2, 40000);
  REQUIRE(test::writeTestCompressed(dir / "long32.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 40000));
  for (const char* name : {"long16.wav", "long32.wav"}) {
    CAPTURE(name);
    const bool floats = std::string(name) == "long32.wav";
    const int64_t blockFrames = floats ? 4096 : 8192;  // 32 KiB of stereo frames
    // A preload of 1022: the reads do not line up with the block boundaries, so some
    // take their taps from the block before and their frames from the next.
    SamplePool ram(PoolOptions{-1}), head(PoolOptions{1022, 0});
    const SampleData* whole = ram.acquire((dir / name).string());
    const SampleData* part = head.acquire((dir / name).string());
    REQUIRE(part->framesInRam == 1022);
    Rig rig;
    engine::StreamReader reader;
    const int64_t last = 40000 - 1 + kGuard;
    REQUIRE(reader.open(&rig.bank, part, LoopMap{}, 1022, last, 1022));
    const Played played = play(reader, rig.bank, *whole, LoopMap{}, 1022, last + 1);
    CHECK(played.wrong == 0);
    CHECK(played.short_ == 0);
    // Float blocks are read where they lie, except across a run's end (each of the 10
    // run boundaries, 9 block ends and the file's end, is crossed by at most 2 reads:
    // they overlap by 6 frames); 16-bit ones are converted as they are copied.
    if (floats) CHECK(played.inPlace >= played.reads - 2 * 10);
    else CHECK(played.inPlace == 0);
    std::vector<float> left(kRead), right(kRead);
    CHECK(reader.copy(last + 1, kRead, left.data(), right.data()) == 0);  // nothing past the stream's last frame
    CHECK(rig.disk.pinnedBlocks() <= 3);  // the block read and the read-ahead, not the blocks behind
    reader.close();
    rig.bank.waitUntilReady();  // takes the Release
    rig.bank.endBlock(kStep);   // takes the slot back
    const auto& counters = rig.disk.counters();
    CHECK(counters.framesDecoded.load() == 40000);
    CHECK(counters.blockMisses.load() == static_cast<uint64_t>((40000 + blockFrames - 1) / blockFrames));
    CHECK(counters.blockHits.load() == 0);
    CHECK(counters.framesConsumed.load() == static_cast<uint64_t>(last + 1 - 1022));
    CHECK(rig.disk.pinnedBlocks() == 0);
    CHECK(rig.bank.slotsInUse() == 0);
  }
}

TEST_CASE("a voice's reads follow a loop_sustain exit from the exit point on", "[stream][disk][runs]") {
  const auto dir = test::scratchDir("runs-exit");
  test::writeTestWav(dir / "sus.wav", 2, 40000);
  SamplePool ram(PoolOptions{-1}), head(PoolOptions{1000, 0});
  const SampleData* whole = ram.acquire((dir / "sus.wav").string());
  const SampleData* part = head.acquire((dir / "sus.wav").string());
  const LoopMap looping{500, 2501, LoopMap::kForever};  // 500..3000, inside the first block
  Rig rig;
  engine::StreamReader reader;
  REQUIRE(reader.open(&rig.bank, part, looping, 1000, LoopMap::kEndless, 1000));
  const Played before = play(reader, rig.bank, *whole, looping, 1000, 5000);  // into cycle 1
  LoopMap released = looping;
  released.wraps = released.cycleOf(5000);
  const int64_t last = 39999 + released.wraps * released.loopLength + kGuard;
  reader.exit(released, released.exitPoint(), last);
  const Played after = play(reader, rig.bank, *whole, released, 5000, last + 1);
  CHECK(before.wrong == 0);
  CHECK(after.wrong == 0);
  CHECK(before.short_ + after.short_ == 0);
  reader.close();
}

TEST_CASE("a file gone before its stream opens gives no frames and a failure", "[stream][disk][runs]") {
  const auto dir = test::scratchDir("runs-missing");
  test::writeTestWav(dir / "gone.wav", 1, 20000);
  SamplePool head(PoolOptions{1000, 0});
  const SampleData* part = head.acquire((dir / "gone.wav").string());
  std::filesystem::remove(dir / "gone.wav");
  Rig rig;
  engine::StreamReader reader;
  REQUIRE(reader.open(&rig.bank, part, LoopMap{}, 1000, 20000, 1000));
  rig.bank.prepare(kStep);
  std::vector<float> left(kRead), right(kRead);
  CHECK(reader.copy(1000, kRead, left.data(), right.data()) == 0);
  CHECK(reader.complete());  // the voice ends (SampleSource::starved)
  CHECK(rig.disk.counters().failures.load() == 1);
  const auto errors = rig.disk.takeErrors();
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("gone.wav") != std::string::npos);
  reader.close();
}

}  // namespace voice_read_tests
