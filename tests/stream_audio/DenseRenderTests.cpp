// A saturated, dense streamed render of a generated FLAC piano (bench/
// DensePiano.h, scaled down) through the real loader, disk thread, block cache and
// offline renderer, exactly as spindle-render wires them:
//  - bit-identical to the same render with every sample in RAM, with 0 underruns,
//    also when every file read is slowed down (an injected slow disk);
//  - frames decoded per frame the voices read stays at or below 1.3 (before the block
//    cache every note decoded its own copy: 1.8 on the bench), also with a cache far
//    smaller than the piano, where blocks are evicted and decoded again;
//  - a note played again decodes nothing new while its blocks stay in the cache.
#include <chrono>
#include <thread>

#include "DensePiano.h"
#include "Sanitized.h"
#include "StreamAudioSupport.h"
#include "session/Loader.h"
#include "catch.h"
#include "io/OfflineRenderer.h"
#include "stream/Streaming.h"

namespace dense_render_tests {

using namespace spindle;
using spindle::test::differing;

namespace {
constexpr int kBlock = 256;
constexpr int kPolyphony = 256;
// Six renders of the song: 20 s each take 250 s under a sanitizer (Sanitized.h). There
// the song is 6 s long and the piano has more keys recorded, so that it still decodes
// more than the small cache below holds and that cache evicts.
constexpr double kSongSeconds = test::kSanitized ? 6.0 : 20.0;
constexpr int kRoots = test::kSanitized ? 24 : 16;

struct Piano {
  std::filesystem::path dir = test::scratchDir("dense-piano");
  bench::PianoShape shape;
  std::vector<io::TimedMidiEvent> song;
  Piano() {
    shape.roots = kRoots;  // 4 FLAC files each (16: 64 files of 1.5-6 s)
    shape.longest = 6.0;
    shape.shortest = 1.5;
    const auto regions = bench::pianoRegions(shape);
    for (const bench::PianoRegion& r : regions) REQUIRE(bench::writePianoFile(dir / r.file, r, shape));
    std::ofstream(dir / "piano.sfz") << bench::pianoSfz(regions, shape);
    bench::SongShape songShape;
    songShape.seconds = kSongSeconds;  // ~85 notes a second
    songShape.chordNotes = 96;  // chords of 96 notes (some keys twice): 256 voices saturate
    for (const bench::SongEvent& e : bench::denseSong(songShape))
      song.push_back(io::TimedMidiEvent{static_cast<double>(e.frame) / songShape.rate, e.status, e.data1, e.data2});
  }
};

struct Result {
  std::vector<float> left, right;
  io::RenderStats render;
  uint64_t underruns = 0, decoded = 0, consumed = 0, streams = 0, misses = 0;
  uint64_t decodedAtSnapshot = 0, missesAtSnapshot = 0;  // at RenderSetup::snapshotFrame
};

struct RenderSetup {
  stream::DiskStream::ReadHook slowDisk;
  std::size_t cacheBytes = stream::BlockCache::kDefaultBudget;
  int64_t snapshotFrame = -1;  // where the disk counters are read mid-render
  bool threaded = true;        // false: no disk thread, the render serves the disk (spindle-render)
};

// spindle-render's wiring (src/app/RenderCommand.cpp) with a disk thread, as a live
// session's freewheel has, unless setup.threaded is false: preload < 0 holds every sample.
// The renderer waits for the disk before every stretch (Engine::processWaiting).
Result render(const Piano& piano, int64_t preload, const std::vector<io::TimedMidiEvent>& song,
              RenderSetup setup = {}) {
  stream::StreamingOptions options;
  options.preloadFrames = preload;
  options.disk.cacheBytes = setup.cacheBytes;
  options.disk.fifoPriority = 0;
  options.disk.beforeRead = std::move(setup.slowDisk);
  options.disk.threaded = setup.threaded;
  session::Loader loader(stream::poolOptionsFor(options));
  stream::Streaming streaming(options, kPolyphony);
  const session::Loader::Result loaded = loader.load(piano.dir / "piano.sfz");
  REQUIRE(loaded.program);
  engine::EngineConfig config{48000.0, kBlock, kPolyphony, engine::Quality::Hermite, 1, streaming.bank()};
  Result out;
  {
    engine::Engine engine(config);
    REQUIRE(engine.postCommand(test::setProgram(loaded.program.get(), 0)));
    io::OfflineRenderer renderer(engine, io::RenderOptions{kBlock, 0.0, 10.0});
    out.render = renderer.render(song, [&](const float* l, const float* r, int frames) {
      const auto at = static_cast<int64_t>(out.left.size());
      if (streaming.disk() && at <= setup.snapshotFrame && at + frames > setup.snapshotFrame) {
        out.decodedAtSnapshot = streaming.disk()->counters().framesDecoded.load();
        out.missesAtSnapshot = streaming.disk()->counters().blockMisses.load();
      }
      out.left.insert(out.left.end(), l, l + frames);
      out.right.insert(out.right.end(), r, r + frames);
      return true;
    });
    out.underruns = engine.stats().sourceUnderruns;
    engine.collectAllPrograms([](const engine::Program*) {});
  }
  if (const stream::DiskThread* disk = streaming.disk()) {
    streaming.bank()->waitUntilReady();  // the last Release orders: their frames consumed are counted
    out.decoded = disk->counters().framesDecoded.load();
    out.consumed = disk->counters().framesConsumed.load();
    out.streams = disk->counters().streamsOpened.load();
    out.misses = disk->counters().blockMisses.load();
  }
  return out;
}
}  // namespace

TEST_CASE("a saturated dense FLAC render streams bit-identically to the all-in-RAM render", "[stream][dense]") {
  const Piano piano;
  const Result ram = render(piano, -1, piano.song);
  REQUIRE(ram.render.notesStarted > 50 * kSongSeconds);
  CHECK(ram.render.voicesStolen > 0);  // saturated: more notes than voices
  CHECK(ram.render.peakVoices >= static_cast<uint32_t>(kPolyphony));
  CHECK(test::peak(ram.left, 0, ram.left.size()) > 0.05f);

  const Result streamed = render(piano, 4096, piano.song);
  CHECK(differing(streamed, ram) == 0);
  CHECK(streamed.underruns == 0);
  CHECK(streamed.render.notesStarted == ram.render.notesStarted);
  CHECK(streamed.render.voicesStolen == ram.render.voicesStolen);
  CHECK(streamed.streams > 50 * kSongSeconds);  // nearly every note streams past its preload
  // Decode once: frames decoded per frame the voices read from their streams.
  INFO("decoded " << streamed.decoded << ", read by voices " << streamed.consumed);
  REQUIRE(streamed.consumed > 1000000);
  CHECK(static_cast<double>(streamed.decoded) <= 1.3 * static_cast<double>(streamed.consumed));

  // A cache smaller than the piano's decoded 16-bit audio (its floor, the blocks every
  // stream slot's read-ahead may pin, 3 x 320 + 2 blocks: 30 MiB): blocks are evicted and
  // decoded again, the output stays exact, and decoding stays well under the voices' reads.
  RenderSetup tiny;
  tiny.cacheBytes = 0;
  const Result small = render(piano, 4096, piano.song, tiny);
  CHECK(differing(small, ram) == 0);
  CHECK(small.underruns == 0);
  INFO("small cache: decoded " << small.decoded << ", read by voices " << small.consumed);
  CHECK(small.decoded > streamed.decoded);  // the eviction happened
  CHECK(static_cast<double>(small.decoded) <= 1.3 * static_cast<double>(small.consumed));

  // No disk thread, as spindle-render runs: the render serves the disk where it would
  // wait for it. Exact, and deterministic: a second render decodes the same frames.
  RenderSetup served;
  served.threaded = false;
  const Result inlined = render(piano, 4096, piano.song, served);
  CHECK(differing(inlined, ram) == 0);
  CHECK(inlined.underruns == 0);
  CHECK(inlined.streams == streamed.streams);
  CHECK(static_cast<double>(inlined.decoded) <= 1.3 * static_cast<double>(inlined.consumed));
  const Result again = render(piano, 4096, piano.song, served);
  CHECK(again.decoded == inlined.decoded);
  CHECK(again.misses == inlined.misses);

  // A slow disk (every block read waits 300 us): the render waits, and stays exact.
  RenderSetup slowDisk;
  slowDisk.slowDisk = [] {
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    return true;
  };
  const Result slow = render(piano, 4096, piano.song, slowDisk);
  CHECK(differing(slow, ram) == 0);
  CHECK(slow.underruns == 0);
}

TEST_CASE("a repeated note decodes nothing new while its blocks stay in the cache", "[stream][cache]") {
  const Piano piano;
  // Key 30, velocity 100 (one FLAC file): held 2 s, then, once it has ended, held 1 s.
  // The second note reads a part of what the first read (and the first's read-ahead past
  // its end, within the first note's frames), so all its blocks are in the cache.
  const auto note = [](double at, double hold) {
    return std::vector<io::TimedMidiEvent>{{at, 0x90, 30, 100}, {at + hold, 0x80, 30, 0}};
  };
  std::vector<io::TimedMidiEvent> twice = note(0.0, 2.0);
  for (const auto& e : note(4.0, 1.0)) twice.push_back(e);
  RenderSetup setup;
  setup.snapshotFrame = 4 * 48000 - 2 * kBlock;  // the first note is over, the second not begun
  const Result r = render(piano, 4096, twice, setup);
  REQUIRE(r.decodedAtSnapshot > 40000);  // the first note streamed far past its 4096-frame preload
  CHECK(r.streams == 2);
  CHECK(r.decoded == r.decodedAtSnapshot);  // the second note's blocks were all hits
  CHECK(r.misses == r.missesAtSnapshot);
  CHECK(r.underruns == 0);
  // And the second note starts exactly like the first (both held for the first second).
  const std::size_t start = 4 * 48000, length = 48000;
  REQUIRE(r.left.size() > start + length);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < length; ++i) wrong += r.left[start + i] != r.left[i];
  CHECK(wrong == 0);
  CHECK(test::peak(r.left, start, start + length) > 0.01f);
}

}  // namespace dense_render_tests
