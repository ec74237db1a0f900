// A SoundFont loaded into one part over OSC or the server (session::Control, its real
// loader thread) plays on every part that has no instrument: a General MIDI song plays
// after one load. The parts share one Program; a session saves them as empty.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "Fixtures.h"
#include "catch.h"
#include "control/ProblemLog.h"
#include "engine/Engine.h"
#include "io/LiveProcessor.h"
#include "session/Control.h"

namespace live_sound_font_tests {

using namespace spindle;

namespace {

class Listener final : public control::LoadListener {
 public:
  void onLoadEvent(control::LoadEvent event) override {
    std::lock_guard lock(mutex_);
    if (event.kind != control::LoadEvent::Kind::Progress) ++finished_, ok_ = event.kind == control::LoadEvent::Kind::Done;
    changed_.notify_all();
  }
  bool wait(int loads) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(60), [&] { return finished_ >= loads; });
    return finished_ >= loads && ok_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int finished_ = 0;
  bool ok_ = false;
};

// Takes the commands the Control queued and lets the engine run one block.
void cycle(session::Control& control, engine::Engine& engine) {
  control.pump();
  std::vector<float> l(256), r(256);
  engine.process(nullptr, 0, l.data(), r.data(), 256);
}

}  // namespace

TEST_CASE("A SoundFont loaded into one part plays on every empty part, sharing one Program", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "dim_cabasa/Dim Cabasa.sfz", "sf2/TimGM6mb.sf2");
  engine::Engine engine(engine::EngineConfig{48000.0, 256, 16, engine::Quality::Hermite, 1, nullptr});
  io::LiveProcessor live(engine);
  control::ProblemLog problems;
  session::Library library(stream::PoolOptions{-1, 0, 512u << 20});
  session::Control control(engine, live, 2, library, problems);
  Listener listener;
  const std::string sine = (fixtures / "dim_cabasa" / "Dim Cabasa.sfz").string();
  control.load(1, 4, sine, listener);  // part 5 has an instrument of its own
  REQUIRE(listener.wait(1));
  cycle(control, engine);
  const auto* cabasa = engine.stats().parts[4].program;
  REQUIRE(cabasa);
  control.load(2, 0, (fixtures / "sf2" / "TimGM6mb.sf2").string(), listener);
  REQUIRE(listener.wait(2));
  for (int i = 0; i < 3; ++i) cycle(control, engine);
  const auto stats = engine.stats();
  const auto* font = stats.parts[0].program;
  REQUIRE(font);
  CHECK(!font->presets.empty());
  for (int part = 0; part < 16; ++part) CHECK(stats.parts[static_cast<size_t>(part)].program == (part == 4 ? cabasa : font));
  const control::SessionState session = control.sessionState();
  CHECK(session.parts[0].instrument.find("TimGM6mb.sf2") != std::string::npos);
  CHECK(session.parts[1].instrument.empty());  // shared: saved as empty, shared again on load
  CHECK(session.parts[4].instrument == sine);
}

}  // namespace live_sound_font_tests
