// The block hand-over between the disk thread and the audio thread under stress: a
// seeded random script of note-ons and note-offs at random frames inside blocks, far
// more notes than voices (voice stealing), sustain pedal, program swaps while voices
// still read pinned blocks, and blocks of every length (a period change, as PipeWire
// makes them), on a real disk thread that nothing waits for. Run it under the tsan
// preset: a block unpinned and rewritten under a voice, or a run read before its
// frames, is a race there. Then:
//  - live: no crash, every voice and stream ends, every pinned block comes back;
//  - waiting (Engine::processWaiting, the same script): the output equals the same
//    script rendered with every sample in RAM, bit for bit.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "StreamAudioSupport.h"
#include "stream/Streaming.h"
#include "catch.h"

namespace hand_over_stress_tests {

using namespace spindle;
using spindle::stream::DiskOptions;
using spindle::stream::DiskThread;
using spindle::stream::PoolOptions;
using spindle::stream::SamplePool;

namespace {
constexpr int kVoices = 12;
constexpr int kMaxBlock = 1024;
constexpr int64_t kPreload = 2048;

struct Library {
  std::filesystem::path dir = test::scratchDir("hand-over");
  Library() {
    test::writeTestWav(dir / "a.wav", 2, 96000);
    test::writeTestWav(dir / "b.wav", 1, 72000);
    REQUIRE(test::writeTestCompressed(dir / "c.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 2, 80000));
    REQUIRE(test::writeTestCompressed(dir / "d.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 2, 60000));  // float blocks
  }
  std::string path(const char* name) const { return (dir / name).string(); }
};

Region region(int sample, int lo, int hi, int center) {
  Region r;
  r.sampleIndex = sample;
  r.lokey = static_cast<uint8_t>(lo);
  r.hikey = static_cast<uint8_t>(hi);
  r.pitchKeycenter = static_cast<uint8_t>(center);
  r.ampVeltrack = 0.0f;
  r.volume = -18.0f;
  r.ampeg.release = 0.01f;
  return r;
}

// Two programs over the same samples: A plays them plain, looped and loop_sustain,
// pitched up and down; B maps them to other keys with other loops.
std::unique_ptr<engine::Program> makeProgram(SamplePool& pool, const Library& lib, bool alternate) {
  auto p = std::make_unique<engine::Program>();
  for (const char* name : {"a.wav", "b.wav", "c.flac", "d.wav"}) p->samples.push_back(pool.acquire(lib.path(name)));
  for (const SampleData* s : p->samples) REQUIRE(s != nullptr);
  for (int s = 0; s < 4; ++s) {
    const int lo = 36 + 12 * s;
    Region r = region(s, lo, lo + 11, alternate ? lo + 3 : lo + 6);
    if ((s + alternate) % 3 == 1) r.loopMode = LoopMode::LoopContinuous, r.loopModeSet = true;
    if ((s + alternate) % 3 == 2) r.loopMode = LoopMode::LoopSustain, r.loopModeSet = true;
    r.loopStart = 3000 + 1000 * s;
    r.loopEnd = alternate ? r.loopStart + 700 : 40000;  // B: short loops, many runs a block
    p->regions.push_back(r);
  }
  p->prepare();
  return p;
}

struct Step {
  int frames = 256;
  bool swap = false;              // post the other program before this block
  std::vector<MidiEvent> events;  // sorted by frame
};

// A seeded script: blocks of 64 to 1024 frames; in each, up to four events at random
// frames (note-ons of random keys and velocities, note-offs of held keys, the pedal);
// a program swap now and then.
std::vector<Step> script(uint32_t seed, int blocks) {
  uint64_t x = seed;
  const auto next = [&x](int n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>((x >> 33) % static_cast<uint64_t>(n));
  };
  const int lengths[] = {64, 128, 256, 256, 512, 1000, kMaxBlock};
  std::vector<Step> steps(static_cast<std::size_t>(blocks));
  for (Step& s : steps) {
    s.frames = lengths[next(7)];
    s.swap = next(40) == 0;
    const int events = next(5);
    for (int e = 0; e < events; ++e) {
      const auto frame = static_cast<uint32_t>(next(s.frames));
      const auto key = static_cast<uint8_t>(36 + next(48));
      const int kind = next(10);
      if (kind < 6) s.events.push_back(MidiEvent{frame, 0x90, key, static_cast<uint8_t>(1 + next(127))});
      else if (kind < 9) s.events.push_back(MidiEvent{frame, 0x80, key, 0});
      else s.events.push_back(MidiEvent{frame, 0xB0, 64, static_cast<uint8_t>(next(2) * 127)});
    }
    std::stable_sort(s.events.begin(), s.events.end(), [](const MidiEvent& a, const MidiEvent& b) { return a.frame < b.frame; });
  }
  return steps;
}

struct Run {
  std::vector<float> left, right;
  uint64_t underruns = 0, stolen = 0, notes = 0;
  int pinnedAtEnd = -1, slotsAtEnd = -1;
};

enum class Mode { Ram, Live, Waiting };

// Plays the script, then every note off (and the pedal up), then until no voice sounds.
Run play(const Library& lib, const std::vector<Step>& steps, Mode mode) {
  DiskOptions options;
  options.fifoPriority = 0;
  options.readBytes = 16 * 1024;
  options.cacheBytes = 0;  // the floor: blocks evicted and decoded again all the time
  SamplePool pool(PoolOptions{mode == Mode::Ram ? -1 : kPreload, options.readFrames()});
  const auto a = makeProgram(pool, lib, false), b = makeProgram(pool, lib, true);
  std::unique_ptr<rt::StreamBank> bank;
  std::unique_ptr<DiskThread> disk;
  if (mode != Mode::Ram) {
    bank = std::make_unique<rt::StreamBank>(stream::streamsFor(kVoices));
    options.pinningStreams = stream::voicesFor(kVoices);
    disk = std::make_unique<DiskThread>(*bank, options);
  }
  Run out;
  engine::Engine engine(engine::EngineConfig{48000.0, kMaxBlock, kVoices, engine::Quality::Hermite, 1, bank.get()});
  REQUIRE(engine.postCommand(test::setProgram(a.get(), 0)));
  bool onA = true;
  std::vector<float> l(kMaxBlock), r(kMaxBlock);
  const auto block = [&](const std::vector<MidiEvent>& events, int frames) {
    const auto count = static_cast<int>(events.size());
    if (mode == Mode::Live)
      engine.process(events.data(), count, l.data(), r.data(), frames);
    else
      engine.processWaiting(events.data(), count, l.data(), r.data(), frames);
    out.left.insert(out.left.end(), l.begin(), l.begin() + frames);
    out.right.insert(out.right.end(), r.begin(), r.begin() + frames);
  };
  for (const Step& s : steps) {
    if (s.swap) {
      onA = !onA;
      REQUIRE(engine.postCommand(test::setProgram(onA ? a.get() : b.get(), 0)));
    }
    block(s.events, s.frames);
  }
  std::vector<MidiEvent> offs{MidiEvent{0, 0xB0, 64, 0}};
  for (int key = 36; key < 84; ++key) offs.push_back(MidiEvent{0, 0x80, static_cast<uint8_t>(key), 0});
  block(offs, 256);
  for (int i = 0; i < 400 && engine.stats().activeVoices > 0; ++i) block({}, 256);
  const engine::EngineStats stats = engine.stats();
  out.underruns = stats.sourceUnderruns;
  out.stolen = stats.voicesStolen;
  out.notes = stats.notesStarted;
  engine.collectAllPrograms([](const engine::Program*) {});
  if (bank) {
    bank->waitUntilReady();  // takes the last Release orders
    engine.process(nullptr, 0, l.data(), r.data(), 64);  // takes the slots back (silence: not recorded)
    out.slotsAtEnd = bank->slotsInUse();
    out.pinnedAtEnd = disk->pinnedBlocks();
  }
  return out;
}

int differing(const Run& a, const Run& b) {
  if (a.left.size() != b.left.size()) return -1;
  int n = 0;
  for (std::size_t i = 0; i < a.left.size(); ++i) n += (a.left[i] != b.left[i]) + (a.right[i] != b.right[i]);
  return n;
}
}  // namespace

TEST_CASE("hand-over stress: stealing, note-offs mid-block, program swaps and period changes", "[stream][stress]") {
  const Library lib;
  const std::vector<Step> steps = script(20261126, 1500);

  const Run live = play(lib, steps, Mode::Live);
  INFO("live: " << live.notes << " notes, " << live.stolen << " stolen, " << live.underruns << " underruns");
  CHECK(live.notes > 1000);
  CHECK(live.stolen > 100);      // far more notes than voices
  CHECK(live.slotsAtEnd == 0);   // every stream released
  CHECK(live.pinnedAtEnd == 0);  // every pinned block given back
  CHECK(std::all_of(live.left.begin(), live.left.end(), [](float v) { return std::isfinite(v); }));
  CHECK(test::peak(live.left, 0, live.left.size()) > 0.01f);

  const Run ram = play(lib, steps, Mode::Ram);
  const Run waiting = play(lib, steps, Mode::Waiting);
  CHECK(waiting.underruns == 0);
  CHECK(waiting.notes == ram.notes);
  CHECK(waiting.stolen == ram.stolen);
  CHECK(differing(waiting, ram) == 0);
  CHECK(waiting.pinnedAtEnd == 0);
}

}  // namespace hand_over_stress_tests
