// Instrument switch while playing: the new instrument is built on the loader thread
// (SFZ parse and sample preloads), published by pointer swap (SetProgram) while notes
// of the old one sound; the old voices play on and end; the old Program is handed
// back and freed on the control thread, never on the audio thread.
#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <thread>

#include "StreamAudioSupport.h"
#include "session/Loader.h"
#include "catch.h"
#include "stream/LoaderThread.h"

namespace instrument_switch_tests {

using namespace spindle;

namespace {
constexpr int kBlock = 256;
}

TEST_CASE("switching instruments while notes sound: old voices finish, the old Program is freed", "[stream][switch]") {
  const auto dir = test::scratchDir("instrument-switch");
  test::writeTestWav(dir / "old.wav", 2, 96000);
  test::writeTestWav(dir / "new.wav", 1, 96000);
  stream::DiskOptions options;
  options.readBytes = 16 * 1024;
  options.fifoPriority = 0;
  // The Loader (and its pool) outlives the disk thread, which reads its samples.
  session::Loader loader(stream::PoolOptions{2048, options.readFrames()});
  rt::StreamBank bank(64);
  stream::DiskThread disk(bank, options);
  stream::LoaderThread loaderThread;
  const auto load = [&](const char* sample) {
    const std::string text = std::string("<region> sample=") + sample + " ampeg_release=0.05 loop_mode=no_loop";
    return loaderThread.submit([&loader, text, dir] { return loader.loadString(text, dir / "x.sfz").program; });
  };

  std::set<const engine::Program*> freed;
  engine::Engine engine(engine::EngineConfig{48000.0, kBlock, 32, engine::Quality::Hermite, 1, &bank});
  std::unique_ptr<engine::Program> first = load("old.wav").get();
  REQUIRE(first);
  const engine::Program* oldProgram = first.release();  // lent to the engine from here on
  REQUIRE(engine.postCommand(test::setProgram(oldProgram, 0)));

  std::vector<test::TimedNote> notes{test::on(0, 60), test::on(0, 64), test::off(150 * kBlock, 60),
                                     test::off(150 * kBlock, 64), test::on(160 * kBlock, 67), test::off(200 * kBlock, 67)};
  test::BlockRenderer renderer(engine, kBlock, notes);
  renderer.beforeBlock = [&bank] { bank.waitUntilReady(); };
  for (int b = 0; b < 20; ++b) renderer.block();  // the old instrument sounds, streaming

  auto pending = load("new.wav");  // built on the loader thread while audio goes on
  const engine::Program* newProgram = nullptr;
  int blocksWhileLoading = 0;
  // Audio goes on while the loader works, for at most 100 blocks: the notes are held
  // until block 150, and a slow machine (sanitizers, a loaded CI host) must not let them
  // end before the swap this test is about.
  while (!stream::LoaderThread::ready(pending)) {
    if (blocksWhileLoading < 100) {
      renderer.block();
      ++blocksWhileLoading;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  newProgram = pending.get().release();
  REQUIRE(newProgram);
  REQUIRE(engine.postCommand(test::setProgram(newProgram, 0)));  // the pointer swap
  renderer.block();
  CHECK(engine.stats().activeVoices == 2);  // the old notes still sound after the swap
  engine.collectGarbage([&](const engine::Program* p) { freed.insert(p); delete p; });
  CHECK(freed.empty());  // not while its voices play

  renderer.toTheEnd(600);
  CHECK(engine.stats().activeVoices == 0);
  CHECK(engine.stats().notesStarted == 3);  // two old notes, one on the new instrument
  CHECK(engine.stats().sourceUnderruns == 0);
  engine.collectGarbage([&](const engine::Program* p) { freed.insert(p); delete p; });
  CHECK(freed.count(oldProgram) == 1);  // handed back once its last voice ended, freed here
  CHECK(freed.count(newProgram) == 0);
  CHECK(test::peak(renderer.left, 165 * kBlock, 195 * kBlock) > 0.01f);  // the new one plays
  engine.collectAllPrograms([&](const engine::Program* p) {
    CHECK(freed.count(p) == 0);
    delete p;
  });
  INFO("blocks rendered while the loader thread worked: " << blocksWhileLoading);
}

}  // namespace instrument_switch_tests
