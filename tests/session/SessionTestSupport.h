#pragma once
// The session tests' rig: a real engine and LiveProcessor, a Library and the Control
// over them (what OSC and the window drive), a listener that records load events and
// can hold the loader thread at a load's start, and small generated libraries.
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "control/ProblemLog.h"
#include "engine/Engine.h"
#include "io/LiveProcessor.h"
#include "session/Control.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test {

// Load events as they arrive (the loader thread). With hold(), the loader thread waits
// at the next load's start (its Progress event) until release(): what the test does
// meanwhile happens while that load is known to be running.
class LoadRecorder final : public control::LoadListener {
 public:
  void onLoadEvent(control::LoadEvent event) override {
    std::unique_lock lock(mutex_);
    events_.push_back(event);
    changed_.notify_all();
    if (event.kind == control::LoadEvent::Kind::Progress) changed_.wait(lock, [this] { return !holding_; });
  }
  void hold() {
    std::lock_guard lock(mutex_);
    holding_ = true;
  }
  void release() {
    std::lock_guard lock(mutex_);
    holding_ = false;
    changed_.notify_all();
  }
  // Waits until `count` events arrived (a minute at most); the events so far.
  std::vector<control::LoadEvent> wait(std::size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(60), [&] { return events_.size() >= count; });
    return events_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<control::LoadEvent> events_;
  bool holding_ = false;
};

struct SessionRig {
  explicit SessionRig(stream::PoolOptions pool = {-1, 0, 0}) : library(pool) {}
  control::ProblemLog problems;
  session::Library library;
  engine::Engine engine{engine::EngineConfig{48000.0, 256, 16, engine::Quality::Hermite, 1, nullptr}};
  io::LiveProcessor live{engine};
  session::Control control{engine, live, 2, library, problems};

  // What the engine's owner does: the queued commands in, one block rendered.
  void cycle() {
    control.pump();
    std::vector<float> l(256), r(256);
    engine.process(nullptr, 0, l.data(), r.data(), 256);
  }
};

// `count` stereo 16-bit samples (`frames` each) on keys 60, 61, ... in `dir`, and the
// .sfz `name` that plays them; extra opcodes per region from `regionOpcodes`.
inline std::filesystem::path writeLibrary(const std::filesystem::path& dir, const std::string& name, int count,
                                          int64_t frames = 4800, const std::string& regionOpcodes = {}) {
  std::ofstream sfz(dir / name);
  for (int i = 0; i < count; ++i) {
    const std::string wav = name + "-" + std::to_string(i) + ".wav";
    std::vector<int16_t> frames16(static_cast<std::size_t>(frames * 2), static_cast<int16_t>(1000 + i));
    writeWav16(dir / wav, 2, frames16, 48000);
    sfz << "<region> key=" << 60 + i << " sample=" << wav << (regionOpcodes.empty() ? "" : " ") << regionOpcodes
        << "\n";
  }
  return dir / name;
}

}  // namespace spindle::test
