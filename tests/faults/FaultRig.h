#pragma once
// FaultRig: an Engine streaming three long files through a real disk thread, rendered
// block by block, where a test breaks the disk under it (tests/faults).
//
// The renderer waits for the disk between blocks (bank.waitUntilReady), so what a test
// sees depends only on the fault it injects, never on the machine's speed.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "StreamAudioSupport.h"
#include "catch.h"
#include "engine/Engine.h"
#include "engine/parts/Program.h"
#include "stream/DiskThread.h"
#include "stream/SamplePool.h"

namespace spindle::test {

class FaultRig {
 public:
  static constexpr int kBlock = 256;
  static constexpr int64_t kPreload = 2048;
  static constexpr int64_t kFileFrames = 96000;  // 2 s: every note streams for most of it

  // Keys 60, 62, 64 play a.wav, b.wav, c.wav. `cacheLimit` 0: every stream opens its file.
  explicit FaultRig(const std::string& name, int cacheLimit = 64) : dir_(scratchDir(name)) {
    for (const char* file : {"a.wav", "b.wav", "c.wav"}) writeTestWav(dir_ / file, 1, kFileFrames);
    stream::DiskOptions options;
    options.readBytes = 16 * 1024;
    options.fifoPriority = 0;
    options.cacheLimit = cacheLimit;
    options.beforeRead = [this] { return !failReads.load(); };
    pool_ = std::make_unique<stream::SamplePool>(stream::PoolOptions{kPreload, options.readFrames()});
    program_ = std::make_unique<engine::Program>();
    int key = 60;
    for (const char* file : {"a.wav", "b.wav", "c.wav"}) {
      program_->samples.push_back(pool_->acquire(path(file)));
      REQUIRE(program_->samples.back());
      Region r;
      r.sampleIndex = static_cast<int32_t>(program_->samples.size() - 1);
      r.lokey = r.hikey = r.pitchKeycenter = static_cast<uint8_t>(key);
      r.ampVeltrack = 0.0f;
      r.ampeg.release = 0.02f;
      program_->regions.push_back(r);
      key += 2;
    }
    program_->prepare();
    bank_ = std::make_unique<rt::StreamBank>(16);
    disk_ = std::make_unique<stream::DiskThread>(*bank_, options);
    engine_ = std::make_unique<engine::Engine>(engine::EngineConfig{48000.0, kBlock, 16, engine::Quality::Hermite, 1, bank_.get()});
    REQUIRE(engine_->postCommand(setProgram(program_.get(), 0)));
  }
  ~FaultRig() {
    failReads.store(false);
    disk_->stop();
  }

  std::string path(const char* file) const { return (dir_ / file).string(); }
  engine::Engine& engine() { return *engine_; }
  stream::DiskThread& disk() { return *disk_; }
  rt::StreamBank& bank() { return *bank_; }

  // Plays `events` (frames from now) for `blocks` blocks; returns the peak level.
  float play(std::vector<TimedNote> events, int blocks) {
    BlockRenderer renderer(*engine_, kBlock, std::move(events));
    renderer.beforeBlock = [this] { bank_->waitUntilReady(); };
    for (int b = 0; b < blocks; ++b) renderer.block();
    return peak(renderer.left, 0, renderer.left.size());
  }
  // Releases every key, renders until no voice sounds, then once more so the audio
  // thread hands the finished streams' slots back. The "no hung note" check.
  void releaseAll() {
    std::vector<TimedNote> offs;
    for (int key : {60, 62, 64}) offs.push_back(off(0, key));
    BlockRenderer renderer(*engine_, kBlock, offs);
    renderer.beforeBlock = [this] { bank_->waitUntilReady(); };
    renderer.toTheEnd(2000);
    bank_->waitUntilReady();
    renderer.block();
  }
  // The errors the disk thread reported since the last call.
  std::vector<stream::DiskError> diskErrors() { return disk_->takeErrors(); }
  // Every error the disk thread reported, joined by newlines; each must name its file
  // in the message and in DiskError::file.
  std::string errors() {
    std::string all;
    for (const stream::DiskError& e : diskErrors()) {
      CHECK(e.message.find(e.file) != std::string::npos);
      all += e.message + "\n";
    }
    return all;
  }

  std::atomic<bool> failReads{false};  // true: every file read fails with EIO

 private:
  std::filesystem::path dir_;
  std::unique_ptr<stream::SamplePool> pool_;
  std::unique_ptr<engine::Program> program_;
  std::unique_ptr<rt::StreamBank> bank_;
  std::unique_ptr<stream::DiskThread> disk_;
  std::unique_ptr<engine::Engine> engine_;
};

}  // namespace spindle::test
