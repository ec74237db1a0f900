// Engine + disk thread: an offline (freewheel) streaming render equals the same render
// with every sample in RAM, bit for bit, over every way a voice reads a stream; and a
// slow disk makes voices underrun, counted, without a crash or a hung voice.
#include <atomic>
#include <chrono>
#include <thread>

#include "StreamAudioSupport.h"
#include "stream/LoopTails.h"
#include "catch.h"

namespace streaming_render_tests {

using namespace spindle;
using spindle::stream::DiskOptions;
using spindle::stream::DiskThread;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;

namespace {
constexpr int kBlock = 256;
constexpr int64_t kPreload = 4096;

struct Library {
  std::filesystem::path dir = test::scratchDir("stream-library");
  Library() {
    test::writeTestWav(dir / "a.wav", 2, 200000);
    test::writeTestWav(dir / "b.wav", 1, 150000);
    REQUIRE(test::writeTestCompressed(dir / "c.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 2, 100000));
    test::writeTestWav(dir / "d.wav", 2, 120000);
    test::writeTestWav(dir / "e.wav", 1, 30000);
    test::writeTestWav(dir / "f.wav", 2, 60000);
  }
  std::string path(const char* name) const { return (dir / name).string(); }
};

Region region(int sample, int key) {
  Region r;
  r.sampleIndex = sample;
  r.lokey = r.hikey = static_cast<uint8_t>(key);
  r.pitchKeycenter = static_cast<uint8_t>(key);
  r.ampVeltrack = 0.0f;
  r.volume = -12.0f;
  r.ampeg.release = 0.05f;
  return r;
}

// Every way a voice meets its stream: plain, a loop wrapping into the preload, a
// loop_sustain left on release (streamed and held in RAM), an offset past the
// preload, count repeats, and pitch (increments above and below 1).
std::unique_ptr<engine::Program> makeProgram(SamplePool& pool, const Library& lib, bool crossfade) {
  auto p = std::make_unique<engine::Program>();
  for (const char* name : {"a.wav", "b.wav", "c.flac", "d.wav", "e.wav", "f.wav"}) p->samples.push_back(pool.acquire(lib.path(name)));
  for (const SampleData* s : p->samples) REQUIRE(s != nullptr);
  p->regions.push_back(region(0, 60));
  Region loop = region(1, 62);
  loop.loopMode = LoopMode::LoopContinuous, loop.loopModeSet = true, loop.loopStart = 3000, loop.loopEnd = 90000;
  p->regions.push_back(loop);
  Region sustain = region(2, 64);
  sustain.loopMode = LoopMode::LoopSustain, sustain.loopModeSet = true, sustain.loopStart = 2000, sustain.loopEnd = 20000;
  p->regions.push_back(sustain);
  Region offset = region(3, 65);
  offset.offset = 60000;
  p->regions.push_back(offset);
  Region count = region(4, 67);
  count.count = 3;
  p->regions.push_back(count);
  Region inRam = region(5, 69);  // its loop lies inside the preload: streams only after the release
  inRam.loopMode = LoopMode::LoopSustain, inRam.loopModeSet = true, inRam.loopStart = 100, inRam.loopEnd = 1500;
  p->regions.push_back(inRam);
  Region pitched = region(0, 72);
  pitched.pitchKeycenter = 60;  // an octave up: two source frames per output frame
  pitched.offset = 5000;
  p->regions.push_back(pitched);
  Region low = region(3, 48);
  low.pitchKeycenter = 55;  // a fifth down
  p->regions.push_back(low);
  p->prepare();
  if (crossfade) {  // loop_crossfade on the three loops, built as the loader builds it
    p->regions[1].loopCrossfade = 0.05f, p->regions[2].loopCrossfade = 0.02f, p->regions[5].loopCrossfade = 0.01f;
    p->loopTails.resize(p->regions.size());
    for (std::size_t i = 0; i < p->regions.size(); ++i) {
      const Region& r = p->regions[i];
      std::string error;
      p->loopTails[i] = stream::buildLoopTail(r, *p->samples[static_cast<std::size_t>(r.sampleIndex)], error);
      REQUIRE(error.empty());
    }
    REQUIRE(p->loopTails[1].frames > 0);
    REQUIRE(p->loopTails[5].frames == 100);  // clamped to loop_start
  }
  return p;
}

std::vector<test::TimedNote> song() {
  std::vector<test::TimedNote> e;
  const int keys[] = {60, 62, 64, 65, 67, 69, 72, 48};
  for (int i = 0; i < 8; ++i) e.push_back(test::on(1000 + i * 3001, keys[i]));
  for (int i = 0; i < 8; ++i) e.push_back(test::off(150000 + i * 7777, keys[i]));
  e.push_back(test::on(200000, 64, 1));  // a second sustain voice, released early
  e.push_back(test::off(203000, 64, 1));
  return e;
}

struct Rendered {
  std::vector<float> left, right;
  engine::EngineStats stats;
  uint64_t streamsOpened = 0, framesDecoded = 0, framesConsumed = 0;
};

// Renders song() with preload < 0 (every sample whole, no disk thread) or with the
// given preload, streaming through a disk thread, the render waiting for it before each
// stretch (Engine::processWaiting), or, not threaded, with none: the render thread runs
// the disk's rounds itself.
Rendered render(const Library& lib, int64_t preload, engine::Quality quality, bool crossfade = false,
                bool threaded = true) {
  DiskOptions options;
  options.readBytes = 16 * 1024;  // 4096-frame reads: files past preload + 4096 frames stream
  options.fifoPriority = 0;
  options.threaded = threaded;  // false: no disk thread, the render serves the disk (spindle-render)
  SamplePool pool(PoolOptions{preload, preload < 0 ? 0 : options.readFrames()});
  const auto program = makeProgram(pool, lib, crossfade);
  std::unique_ptr<rt::StreamBank> bank;
  std::unique_ptr<DiskThread> disk;
  if (preload >= 0) {
    bank = std::make_unique<rt::StreamBank>(32);
    disk = std::make_unique<DiskThread>(*bank, options);
  }
  Rendered out;
  {
    engine::Engine engine(engine::EngineConfig{48000.0, kBlock, 32, quality, 1, bank.get()});
    REQUIRE(engine.postCommand(test::setProgram(program.get(), 0)));
    REQUIRE(engine.postCommand(test::setProgram(program.get(), 1)));
    test::BlockRenderer renderer(engine, kBlock, song());
    renderer.waiting = true;
    renderer.toTheEnd(2000);
    out.left = std::move(renderer.left);
    out.right = std::move(renderer.right);
    out.stats = engine.stats();
    engine.collectAllPrograms([](const engine::Program*) {});
  }
  if (disk) {
    out.streamsOpened = disk->counters().streamsOpened.load();
    out.framesDecoded = disk->counters().framesDecoded.load();
    out.framesConsumed = disk->counters().framesConsumed.load();
  }
  return out;
}
}  // namespace

TEST_CASE("a streaming offline render is bit-identical to an all-in-RAM render", "[stream][render]") {
  const auto quality = GENERATE(engine::Quality::Hermite, engine::Quality::SincHigh);
  const bool threaded = GENERATE(true, false);
  INFO("quality " << static_cast<int>(quality) << (threaded ? ", disk thread" : ", no disk thread"));
  const Library lib;
  const Rendered ram = render(lib, -1, quality);
  const Rendered streamed = render(lib, kPreload, quality, false, threaded);
  REQUIRE(ram.left.size() > 200000);
  CHECK(test::peak(ram.left, 0, ram.left.size()) > 0.05f);
  REQUIRE(streamed.left.size() == ram.left.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < ram.left.size(); ++i)
    differing += (ram.left[i] != streamed.left[i]) + (ram.right[i] != streamed.right[i]);
  CHECK(differing == 0);
  CHECK(streamed.stats.sourceUnderruns == 0);
  CHECK(ram.stats.sourceUnderruns == 0);
  CHECK(streamed.stats.notesStarted == ram.stats.notesStarted);
  CHECK(streamed.streamsOpened >= 8);      // every voice streamed
  CHECK(streamed.framesConsumed > 500000);  // most of the audio came through the disk thread
  CHECK(streamed.framesDecoded <= 660000);  // each file (660000 frames together) decoded once at most
}

TEST_CASE("loop_crossfade: a streaming render equals the in-RAM render, and differs from no crossfade",
          "[stream][render][xfade]") {
  const Library lib;
  const bool threaded = GENERATE(true, false);
  INFO((threaded ? "disk thread" : "no disk thread"));
  const Rendered ram = render(lib, -1, engine::Quality::Hermite, true);
  const Rendered streamed = render(lib, kPreload, engine::Quality::Hermite, true, threaded);
  const Rendered plain = render(lib, kPreload, engine::Quality::Hermite, false);
  REQUIRE(streamed.left.size() == ram.left.size());
  std::size_t differing = 0, fromPlain = 0;
  for (std::size_t i = 0; i < ram.left.size(); ++i) {
    differing += (ram.left[i] != streamed.left[i]) + (ram.right[i] != streamed.right[i]);
    if (i < plain.left.size()) fromPlain += ram.left[i] != plain.left[i];
  }
  CHECK(differing == 0);
  CHECK(fromPlain > 1000);  // the tails did sound
  CHECK(streamed.stats.sourceUnderruns == 0);
}

TEST_CASE("a slow disk: voices underrun, counted, resume when data arrives, and end", "[stream][slow]") {
  const Library lib;
  DiskOptions options;
  options.readBytes = 16 * 1024;
  options.fifoPriority = 0;
  std::atomic<bool> diskStalled{true};
  std::atomic<uint64_t> readsAttempted{0};
  // Injected read delay: every file read waits while the disk is "stalled".
  options.beforeRead = [&] {
    readsAttempted.fetch_add(1);
    while (diskStalled.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return true;
  };
  SamplePool pool(PoolOptions{2048, options.readFrames()});
  const auto program = makeProgram(pool, lib, false);
  rt::StreamBank bank(32);
  DiskThread disk(bank, options);  // live mode: nothing waits for it
  struct Unstall {
    std::atomic<bool>& flag;
    ~Unstall() { flag.store(false); }  // the disk thread must be able to stop
  } unstall{diskStalled};

  engine::Engine engine(engine::EngineConfig{48000.0, kBlock, 32, engine::Quality::Hermite, 1, &bank});
  REQUIRE(engine.postCommand(test::setProgram(program.get(), 0)));
  std::vector<test::TimedNote> notes;
  for (int key : {60, 62, 65, 72}) notes.push_back(test::on(0, key));
  test::BlockRenderer renderer(engine, kBlock, notes);
  for (int b = 0; b < 60; ++b) renderer.block();  // 15360 frames: far past the 2048-frame preload
  const uint64_t stalledUnderruns = engine.stats().sourceUnderruns;
  CHECK(stalledUnderruns > 0);
  CHECK(engine.stats().activeVoices == 4);  // silent, not gone: they wait for their data
  CHECK(test::peak(renderer.left, 0, 2048) > 0.01f);  // the preload played
  CHECK(test::peak(renderer.left, 40 * kBlock, 60 * kBlock) == 0.0f);

  diskStalled.store(false);
  renderer.beforeBlock = [&bank] { bank.waitUntilReady(); };  // from here the disk keeps up
  for (int b = 0; b < 8; ++b) renderer.block();  // catching up: the runs skip to the voices' positions
  const uint64_t caughtUp = engine.stats().sourceUnderruns;
  for (int b = 0; b < 40; ++b) renderer.block();
  CHECK(engine.stats().sourceUnderruns == caughtUp);  // no new underrun once data flows
  CHECK(test::peak(renderer.left, 70 * kBlock, 108 * kBlock) > 0.01f);  // sound again

  std::vector<test::TimedNote> offs;
  for (int key : {60, 62, 65, 72}) offs.push_back(test::off(0, key));
  test::BlockRenderer tail(engine, kBlock, offs);
  tail.beforeBlock = renderer.beforeBlock;
  tail.toTheEnd(400);
  CHECK(engine.stats().activeVoices == 0);  // no voice hangs
  bank.waitUntilReady();
  tail.block();  // takes the released slots back
  CHECK(bank.slotsInUse() == 0);
  CHECK(readsAttempted.load() > 0);
  engine.collectAllPrograms([](const engine::Program*) {});
}

TEST_CASE("no free stream slot: the voice counts an underrun and fades out, the others play on", "[stream][slots]") {
  const Library lib;
  DiskOptions options;
  options.readBytes = 16 * 1024;
  options.fifoPriority = 0;
  SamplePool pool(PoolOptions{2048, options.readFrames()});
  const auto program = makeProgram(pool, lib, false);
  rt::StreamBank bank(1);  // one stream only
  DiskThread disk(bank, options);
  engine::Engine engine(engine::EngineConfig{48000.0, kBlock, 32, engine::Quality::Hermite, 1, &bank});
  REQUIRE(engine.postCommand(test::setProgram(program.get(), 0)));
  test::BlockRenderer renderer(engine, kBlock, {test::on(0, 60), test::on(0, 72)});
  renderer.beforeBlock = [&bank] { bank.waitUntilReady(); };
  for (int b = 0; b < 40; ++b) renderer.block();  // 10240 frames: both voices are past 2048
  CHECK(engine.stats().activeVoices == 1);         // the one without a stream has ended
  CHECK(engine.stats().sourceUnderruns >= 1);
  CHECK(disk.counters().streamsOpened.load() == 1);
  CHECK(test::peak(renderer.left, 20 * kBlock, 40 * kBlock) > 0.01f);  // the streamed voice plays on
  engine.collectAllPrograms([](const engine::Program*) {});
}

}  // namespace streaming_render_tests
