// loop_sustain through the real loader, disk thread and offline renderer, wired as
// spindle-render wires them: notes released just before the end of a loop cycle, when
// the stream's runs reach past the exit point with the old loop, render bit-identically to the all-in-RAM render with 0 underruns:
// with no preload and with one, with a slow disk, and live (no wait inside a block)
// with a disk that keeps up, whether the release comes well before the exit point or
// only frames before it (the exit frames kept in RAM, core/LoopTail.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <thread>
#include <vector>

#include "StreamAudioSupport.h"
#include "session/Loader.h"
#include "core/Limits.h"
#include "catch.h"
#include "io/OfflineRenderer.h"
#include "stream/AudioFile.h"
#include "stream/Streaming.h"

namespace loop_sustain_render_tests {

using namespace spindle;
using spindle::test::differing;

namespace {
constexpr int kBlock = 256;
constexpr double kRate = 48000.0;  // the files' rate too: an increment is the pitch ratio alone

// One loop_sustain region: lokey..hikey around `center`, its loop [start, start + length).
struct Loop {
  const char* file;
  int lokey, hikey, center;
  int64_t start, length, count;  // count 0: loops until the release
};
// long.wav: stereo 16-bit; tone.flac: mono FLAC; short.wav: a loop_count=4 loop whose
// whole remaining stream fits in the read-ahead, so it is complete before the release.
constexpr Loop kLoops[] = {{"long.wav", 48, 79, 60, 20000, 10000, 0},
                           {"tone.flac", 36, 47, 44, 30000, 8000, 0},
                           {"short.wav", 84, 84, 84, 9000, 500, 4}};

struct Library {
  std::filesystem::path dir = test::scratchDir("loop-sustain");
  Library() {
    test::writeTestWav(dir / "long.wav", 2, 200000);
    REQUIRE(test::writeTestCompressed(dir / "tone.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 1, 120000));
    test::writeTestWav(dir / "short.wav", 2, 12000);
    std::ofstream sfz(dir / "sustain.sfz");
    for (const Loop& l : kLoops) {
      sfz << "<region> sample=" << l.file << " lokey=" << l.lokey << " hikey=" << l.hikey
          << " pitch_keycenter=" << l.center << " loop_mode=loop_sustain loop_start=" << l.start
          << " loop_end=" << l.start + l.length - 1 << " amp_veltrack=0 ampeg_release=0.05";
      if (l.count > 0) sfz << " loop_count=" << l.count;
      sfz << "\n";
    }
  }
};

// Notes started 0.2 s apart (several sound at once; a key ends before it comes again),
// each released `before[i]` source frames ahead of the end of loop cycle 0, 1 or 2.
std::vector<io::TimedMidiEvent> song(const std::vector<int64_t>& before) {
  const int keys[] = {60, 48, 55, 64, 67, 72, 79, 40, 44, 47, 84};
  std::vector<io::TimedMidiEvent> events;
  for (int i = 0; i < 33; ++i) {
    const int key = keys[i % 11];
    const Loop& l = key >= 84 ? kLoops[2] : key < 48 ? kLoops[1] : kLoops[0];
    const double increment = std::exp2((key - l.center) / 12.0);
    const int64_t cycle = l.count > 0 ? 0 : i % 3;
    const int64_t release = l.start + (cycle + 1) * l.length - before[static_cast<std::size_t>(i) % before.size()];
    const int64_t on = 2000 + i * 9600;
    const auto off = on + static_cast<int64_t>(std::ceil(static_cast<double>(release) / increment));
    events.push_back({static_cast<double>(on) / kRate, 0x90, static_cast<uint8_t>(key), 100});
    events.push_back({static_cast<double>(off) / kRate, 0x80, static_cast<uint8_t>(key), 0});
  }
  std::stable_sort(events.begin(), events.end(), [](const io::TimedMidiEvent& a, const io::TimedMidiEvent& b) {
    return a.seconds < b.seconds;
  });
  return events;
}

struct Setup {
  int64_t preload = 0;  // < 0: every sample whole in RAM
  bool live = false;    // not freewheel: the render waits for the disk between blocks only
  stream::DiskStream::ReadHook slowDisk;
  bool threaded = true;  // false: no disk thread, the voices read the blocks (spindle-render)
};

struct Result {
  std::vector<float> left, right;
  io::RenderStats render;
  uint64_t underruns = 0, streams = 0;
};

// spindle-render's wiring (src/app/RenderCommand.cpp) but for the read size; live: a
// session's read-ahead and no wait inside a block (Engine::process), the disk waited for
// before every block so that it keeps up.
Result render(const Library& lib, const std::vector<io::TimedMidiEvent>& events, const Setup& setup) {
  stream::StreamingOptions options;
  options.preloadFrames = setup.preload;
  options.disk.readBytes = 16 * 1024;  // 4096-frame reads: short.wav (12000 frames) streams too
  options.disk.fifoPriority = 0;
  options.disk.beforeRead = setup.slowDisk;
  options.disk.threaded = setup.threaded;
  session::Loader loader(stream::poolOptionsFor(options));
  stream::Streaming streaming(options, 32);
  const session::Loader::Result loaded = loader.load(lib.dir / "sustain.sfz");
  REQUIRE(loaded.program);
  REQUIRE(loaded.program->regions.size() == 3);
  std::function<void()> wait;
  if (setup.live) wait = [&streaming] { streaming.bank()->waitUntilReady(); };
  Result out;
  {
    engine::Engine engine(engine::EngineConfig{kRate, kBlock, 32, engine::Quality::Hermite, 1, streaming.bank()});
    REQUIRE(engine.postCommand(test::setProgram(loaded.program.get(), 0)));
    io::RenderOptions renderOptions{kBlock, 0.0, 5.0, wait};
    renderOptions.live = setup.live;
    io::OfflineRenderer renderer(engine, renderOptions);
    out.render = renderer.render(events, [&](const float* l, const float* r, int frames) {
      out.left.insert(out.left.end(), l, l + frames);
      out.right.insert(out.right.end(), r, r + frames);
      return true;
    });
    out.underruns = engine.stats().sourceUnderruns;
    engine.collectAllPrograms([](const engine::Program*) {});
  }
  if (const stream::DiskThread* disk = streaming.disk()) out.streams = disk->counters().streamsOpened.load();
  return out;
}
// song(before) live with the live preload against all in RAM: identical, 0 underruns.
void checkLiveAgainstRam(const std::vector<int64_t>& before) {
  const Library lib;
  const auto notes = song(before);
  const Result ram = render(lib, notes, Setup{-1, false, {}});
  const Result live = render(lib, notes, Setup{16384, true, {}});
  REQUIRE(ram.render.notesStarted == 33);
  CHECK(live.render.frames == ram.render.frames);
  CHECK(differing(live, ram) == 0);
  CHECK(live.underruns == 0);
  CHECK(live.streams == 30);  // short.wav lies whole within the preload
}
}  // namespace

// Offline: from 8 frames before the exit point (the runs reaching far past it with
// the old loop) to 7000 (a few past it).
TEST_CASE("loop_sustain released near a loop end streams bit-identically to the all-in-RAM render",
          "[stream][render][loopsus]") {
  const Library lib;
  const auto notes = song({8, 24, 60, 150, 400, 1200, 7000});
  const Result ram = render(lib, notes, Setup{-1, false, {}});
  REQUIRE(ram.render.notesStarted == 33);
  REQUIRE(ram.render.frames > 33 * 9600);
  CHECK(ram.underruns == 0);
  CHECK(test::peak(ram.left, 0, ram.left.size()) > 0.05f);

  const auto slow = [] {
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    return true;
  };
  const Setup streamedSetups[] = {{0, false, {}},         {4096, false, {}},       {0, false, slow},
                                  {0, false, {}, false},  {4096, false, {}, false}, {0, false, slow, false}};
  for (const Setup& setup : streamedSetups) {
    INFO("preload " << setup.preload << (setup.slowDisk ? ", slow disk" : "") << (setup.threaded ? "" : ", no disk thread"));
    const Result streamed = render(lib, notes, setup);
    CHECK(streamed.render.frames == ram.render.frames);
    CHECK(differing(streamed, ram) == 0);
    CHECK(streamed.underruns == 0);
    CHECK(streamed.render.notesStarted == ram.render.notesStarted);
    CHECK(streamed.streams == 33);  // every note streamed, short.wav's too
  }
}

// Live, nothing waits inside a block. From 900 frames before the exit point on, the
// disk has a round for the Exit order and the runs past the exit arrive in time; the
// runs of the old loop past it, pushed before, are skipped.
TEST_CASE("live: after a loop_sustain release the runs past the exit point arrive in time",
          "[stream][render][loopsus]") {
  checkLiveAgainstRam({900, 1300, 1800, 2500, 3200, 4000});
}

// Live, a release closer to the exit point than what a voice reads in one block (768
// source frames and the taps at key 79): the Exit order reaches the disk thread only
// after the block that crosses the exit point, so the frames past it come from the
// exit frames the region keeps in RAM (core/LoopTail.h). Without them: 30 underruns
// and 2,434 differing samples.
TEST_CASE("live: a loop_sustain release frames before the exit point plays the kept exit frames",
          "[stream][render][loopsus]") {
  checkLiveAgainstRam({8, 100, 300, 600, 760});
}

// The exit frames themselves: a streamed loop_sustain loop keeps the preload's length
// of file frames past loop_end (the sample's preload: 16384 frames at the highest pitch
// its region plays), equal to the file's; a sample whole in RAM (short.wav) and a render
// with no preload keep none.
TEST_CASE("a streamed loop_sustain loop keeps the file frames past its end", "[stream][loopsus]") {
  const Library lib;
  stream::StreamingOptions options;
  options.preloadFrames = 16384;
  session::Loader liveLoader(stream::poolOptionsFor(options));
  const session::Loader::Result live = liveLoader.load(lib.dir / "sustain.sfz");
  REQUIRE(live.program);
  const engine::Program& program = *live.program;
  REQUIRE(program.loopTails.size() == 3);
  std::size_t tailBytes = 0;
  for (int i = 0; i < 2; ++i) {
    const Loop& l = kLoops[i];
    const LoopTail& tail = program.loopTails[static_cast<std::size_t>(i)];
    CHECK(tail.frames == 0);  // no loop_crossfade
    // long.wav: keys 48..79 around 60, 19 keys up and the bend's 2 semitones; tone.flac:
    // 36..47 around 44, 3 keys and 2 semitones. At most kMaxLoopExitFrames.
    const double cents = i == 0 ? 2100.0 : 500.0;
    const auto preload = static_cast<int64_t>(std::ceil(16384 * std::exp2(cents / 1200.0)));
    const int64_t h = std::min(preload, kMaxLoopExitFrames);
    CHECK(program.samples[static_cast<std::size_t>(program.regions[static_cast<std::size_t>(i)].sampleIndex)]->framesInRam == preload);
    REQUIRE(tail.exitFrames == h);
    tailBytes += sizeof(float) * static_cast<std::size_t>(h * (i == 0 ? 2 : 1));
    CHECK(tail.loopEnd == l.start + l.length - 1);
    std::string error;
    const auto reader = stream::AudioFileReader::open(lib.dir / l.file, error);
    REQUIRE(reader);
    std::vector<float> left(static_cast<std::size_t>(h)), right(static_cast<std::size_t>(h));
    REQUIRE(reader->seek(tail.loopEnd + 1));
    REQUIRE(reader->readPlanar(left.data(), i == 0 ? right.data() : nullptr, h) == h);
    CHECK(std::equal(left.begin(), left.end(), tail.exitChannel(0)));
    if (i == 0) CHECK(std::equal(right.begin(), right.end(), tail.exitChannel(1)));
    CHECK(tail.exitRight.empty() == (i == 1));
  }
  CHECK(program.loopTails[2].exitFrames == 0);  // short.wav: whole in RAM
  CHECK(live.report.loopTailBytes == tailBytes);  // stereo long.wav, mono tone.flac
  options.preloadFrames = 0;
  session::Loader offlineLoader(stream::poolOptionsFor(options));
  const session::Loader::Result offline = offlineLoader.load(lib.dir / "sustain.sfz");
  REQUIRE(offline.program);
  CHECK(offline.program->loopTails.empty());
  CHECK(offline.report.loopTailBytes == 0);

  // A preload raised past kMaxLoopExitFrames keeps that many exit frames, no more.
  test::writeTestWav(lib.dir / "big.wav", 2, 300000);
  std::ofstream(lib.dir / "big.sfz") << "<region> sample=big.wav key=60 loop_mode=loop_sustain loop_start=140000"
                                        " loop_end=150000\n";
  options.preloadFrames = 100000;
  session::Loader bigLoader(stream::poolOptionsFor(options));
  const session::Loader::Result big = bigLoader.load(lib.dir / "big.sfz");
  REQUIRE(big.program);
  REQUIRE(big.program->loopTails.size() == 1);
  CHECK(big.program->loopTails[0].exitFrames == kMaxLoopExitFrames);

  // Ogg Vorbis (decoded from frame 0 up to the loop's end: its seeks are not trusted to
  // be sample-exact, stream/BlockCache.cpp): the exit frames equal a whole-file
  // decode's, and read as zeros past the file's end (here 9,999 frames past loop_end).
  REQUIRE(test::writeTestCompressed(lib.dir / "tone.ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS, 2, 120000));
  std::ofstream(lib.dir / "ogg.sfz") << "<region> sample=tone.ogg key=60 loop_mode=loop_sustain loop_start=60000"
                                        " loop_end=110000\n";
  const session::Loader::Result ogg = liveLoader.load(lib.dir / "ogg.sfz");
  REQUIRE(ogg.program);
  REQUIRE(ogg.program->loopTails.size() == 1);
  const LoopTail& tail = ogg.program->loopTails[0];
  REQUIRE(tail.exitFrames == 9999 + limits::kGuardFrames);
  std::string error;
  const auto reader = stream::AudioFileReader::open(lib.dir / "tone.ogg", error);
  REQUIRE(reader);
  std::vector<float> whole[2];
  for (auto& w : whole) w.assign(120000 + limits::kGuardFrames, 0.0f);
  REQUIRE(reader->readPlanar(whole[0].data(), whole[1].data(), 120000) == 120000);
  for (int c = 0; c < 2; ++c)
    CHECK(std::equal(whole[c].begin() + 110001, whole[c].end(), tail.exitChannel(c)));
}

}  // namespace loop_sustain_render_tests
