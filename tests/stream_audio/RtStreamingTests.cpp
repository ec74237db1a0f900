// A 256-voice streaming render: every voice reads past its preload from the decoded
// blocks in place, through the runs the disk thread pushes, and the audio thread's whole
// path (note-ons ordering streams, reading and converting runs, consuming them,
// note-offs releasing streams, the semaphore post) allocates nothing and takes no lock.
// Under the rtsan preset RealtimeSanitizer checks the same scope.
#include "StreamAudioSupport.h"
#include "RtChecks.h"
#include "catch.h"

namespace rt_streaming_tests {

using namespace spindle;
using spindle::stream::DiskOptions;
using spindle::stream::DiskThread;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;

namespace {
constexpr int kBlock = 256;
constexpr int kVoices = 256;
constexpr int kFiles = 8;
constexpr int64_t kFrames = 48000;  // one second each; the preload holds 2048
}  // namespace

TEST_CASE("Audio thread: a 256-voice streaming render allocates nothing and takes no lock", "[rt][audio][stream]") {
  INFO(test::rtGuardMode());
  const auto dir = test::scratchDir("rt-streaming");
  DiskOptions options;
  options.readBytes = 64 * 1024;
  options.fifoPriority = 0;
  SamplePool pool(PoolOptions{2048, options.readFrames()});
  engine::Program program;
  for (int f = 0; f < kFiles; ++f) {
    const auto path = dir / ("s" + std::to_string(f) + ".wav");
    test::writeTestWav(path, 2, kFrames);
    program.samples.push_back(pool.acquire(path.string()));
    REQUIRE(program.samples.back()->framesInRam < program.samples.back()->totalFrames);
  }
  for (int f = 0; f < kFiles; ++f) {
    Region r;
    r.sampleIndex = f;
    r.lokey = static_cast<uint8_t>(f * 16);
    r.hikey = static_cast<uint8_t>(f * 16 + 15);
    r.pitchKeycenter = static_cast<uint8_t>(f * 16 + 8);
    r.pitchKeytrack = 10.0f;  // every voice at its own increment near 1
    r.volume = -30.0f;
    r.ampeg.release = 0.02f;
    if (f % 2) r.loopMode = LoopMode::LoopContinuous, r.loopModeSet = true, r.loopStart = 1000, r.loopEnd = 30000;
    program.regions.push_back(r);
  }
  program.prepare();

  rt::StreamBank bank(kVoices + 64);
  DiskThread disk(bank, options);
  std::vector<test::TimedNote> events;
  for (int key = 0; key < 128; ++key)
    for (int part = 0; part < 2; ++part) events.push_back(test::on(key, key, part));
  for (int key = 0; key < 128; ++key)
    for (int part = 0; part < 2; ++part) events.push_back(test::off(120 * kBlock + key, key, part));
  {
    engine::Engine engine(engine::EngineConfig{48000.0, kBlock, kVoices, engine::Quality::Sinc, 1, &bank});
    for (int part = 0; part < 2; ++part) REQUIRE(engine.postCommand(test::setProgram(&program, part)));
    test::BlockRenderer renderer(engine, kBlock, events);
    renderer.audioScope = true;                               // process() only
    renderer.beforeBlock = [&bank] { bank.waitUntilReady(); };  // outside the scope, as a renderer would
    test::resetRtCounts();
    for (int b = 0; b < 20; ++b) renderer.block();
    const engine::EngineStats sounding = engine.stats();
    renderer.toTheEnd(400);
    const test::RtCounts counts = test::rtCounts();
    const engine::EngineStats end = engine.stats();
    engine.collectAllPrograms([](const engine::Program*) {});

    CHECK(sounding.activeVoices == static_cast<uint32_t>(kVoices));
    CHECK(end.peakVoices == static_cast<uint32_t>(kVoices));
    CHECK(end.sourceUnderruns == 0);
    CHECK(end.activeVoices == 0);
    CHECK(disk.counters().streamsOpened.load() == static_cast<uint64_t>(kVoices));
    // Every voice read its stream; the blocks were decoded once for all voices of a file.
    bank.waitUntilReady();  // the last Release orders taken: consumed frames are counted then
    CHECK(disk.counters().framesConsumed.load() > static_cast<uint64_t>(kVoices) * 20000);
    CHECK(disk.counters().framesDecoded.load() <= static_cast<uint64_t>(kFiles) * kFrames);
    CHECK(test::peak(renderer.left, 0, renderer.left.size()) > 0.01f);
    test::checkAudioThreadClean(counts);
  }
}

}  // namespace rt_streaming_tests
