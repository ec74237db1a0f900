// The engine's tempo: MIDI timing clocks measured from their event frames, smoothed over a
// beat, start/continue/stop, and which source wins (engine/Tempo.h).
#include <cmath>
#include <vector>

#include "EngineTestSupport.h"
#include "engine/MidiClock.h"

namespace tempo_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;

TimedEvent realtime(int64_t frame, uint8_t status) { return {frame, MidiEvent{0, status, 0, 0}}; }

// The frame of clock k at `bpm`, counted from `first`, rounded to the frame.
int64_t clockFrame(int64_t first, double bpm, int k) {
  return first + std::llround(k * 60.0 * kRate / (bpm * engine::MidiClock::kClocksPerBeat));
}

// `count` clocks at `bpm` from frame `first`, with `jitter` frames of +-: a fixed sequence.
std::vector<TimedEvent> clocks(int64_t first, double bpm, int count, int jitter = 0) {
  std::vector<TimedEvent> out;
  for (int k = 0; k < count; ++k) {
    const int64_t shift = jitter == 0 ? 0 : ((k * 7919) % (2 * jitter + 1)) - jitter;
    out.push_back(realtime(clockFrame(first, bpm, k) + shift, midi::kClock));
  }
  return out;
}

engine::Command setTempo(float bpm) {
  engine::Command c;
  c.type = engine::CommandType::SetTempo;
  c.value = bpm;
  return c;
}

}  // namespace

TEST_CASE("tempo: MIDI clocks at 90 and then 140 BPM set the engine's tempo within 0.1 BPM", "[engine][tempo]") {
  Renderer r;
  CHECK(r.engine.stats().tempo == 120.0f);
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Default);
  // Five clocks (four intervals), rendered through to the frame after the last.
  r.run(clocks(100, 90.0, 5), clockFrame(100, 90.0, 4) + 1);
  CHECK(r.engine.stats().tempo == Approx(90.0).margin(0.1));
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Clock);
  const int64_t at = static_cast<int64_t>(r.left.size());
  std::vector<TimedEvent> faster = {realtime(at, midi::kStart)};
  for (const TimedEvent& e : clocks(at, 140.0, 5)) faster.push_back(e);
  r.run(faster, clockFrame(at, 140.0, 4) - at + 1);
  CHECK(r.engine.stats().tempo == Approx(140.0).margin(0.1));
}

TEST_CASE("tempo: a clock's jitter moves the tempo by under a quarter BPM", "[engine][tempo]") {
  Renderer r;
  // 0.5 ms of jitter either way at 120 BPM (a clock every 1000 frames); checked after
  // every block once the window (one beat) is full.
  r.run(clocks(0, 120.0, 25, 24), 24500);
  float lowest = 1000.0f, highest = 0.0f;
  const std::vector<TimedEvent> rest = clocks(25000, 120.0, 200, 24);
  for (int64_t block = 0; block < 200000 / 256; ++block) {
    std::vector<TimedEvent> due;
    const int64_t from = 24500 + block * 256;
    for (const TimedEvent& e : rest)
      if (e.frame >= from && e.frame < from + 256) due.push_back(e);
    r.run(due, 256);
    lowest = std::min(lowest, r.engine.stats().tempo);
    highest = std::max(highest, r.engine.stats().tempo);
  }
  INFO("between " << lowest << " and " << highest);
  CHECK(lowest > 119.75f);
  CHECK(highest < 120.25f);
}

TEST_CASE("tempo: a stopped clock leaves its last tempo; a set tempo then replaces it", "[engine][tempo]") {
  Renderer r;
  r.post(setTempo(100.0f));
  r.run({}, 256);
  CHECK(r.engine.stats().tempo == 100.0f);
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Set);
  std::vector<TimedEvent> events = clocks(256, 140.0, 30);
  const int64_t stop = clockFrame(256, 140.0, 29) + 10;
  events.push_back(realtime(stop, midi::kStop));
  r.run(events, stop + 48000 - 256);
  CHECK(r.engine.stats().tempo == Approx(140.0).margin(0.1));
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Clock);
  r.post(setTempo(90.0f));
  r.run({}, 256);
  CHECK(r.engine.stats().tempo == 90.0f);
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Set);
}

TEST_CASE("tempo: clocks that stop coming leave their tempo; a set tempo waits while they run", "[engine][tempo]") {
  Renderer r;
  r.run(clocks(0, 90.0, 30), clockFrame(0, 90.0, 29) + 1);
  r.post(setTempo(100.0f));  // the clock outranks it
  r.run(clocks(clockFrame(0, 90.0, 30), 90.0, 1), 2000);
  CHECK(r.engine.stats().tempo == Approx(90.0).margin(0.1));
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Clock);
  // No clock for a second: stopped, its tempo stays.
  r.run({}, 48000);
  CHECK(r.engine.stats().tempo == Approx(90.0).margin(0.1));
  r.post(setTempo(100.0f));
  r.run({}, 256);
  CHECK(r.engine.stats().tempo == 100.0f);
}

TEST_CASE("tempo: the transport outranks the clock while it rolls; a set tempo outranks a song's",
          "[engine][tempo]") {
  Renderer r;
  r.engine.setSongTempo(130.0f);
  r.run({}, 256);
  CHECK(r.engine.stats().tempo == 130.0f);
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Song);
  r.post(setTempo(110.0f));
  r.run({}, 256);
  r.engine.setSongTempo(70.0f);
  r.run({}, 256);
  CHECK(r.engine.stats().tempo == 110.0f);
  const int64_t at = static_cast<int64_t>(r.left.size());
  r.run(clocks(at, 90.0, 10), clockFrame(at, 90.0, 9) - at + 1);
  CHECK(r.engine.stats().tempo == Approx(90.0).margin(0.1));
  r.engine.setTempo(150.0f);
  r.run({}, 256);
  CHECK(r.engine.stats().tempo == 150.0f);
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Transport);
  r.run({realtime(clockFrame(at, 90.0, 10), midi::kClock)}, 1400);  // rolling no more
  CHECK(r.engine.stats().tempo == Approx(90.0).margin(0.1));
  CHECK(r.engine.stats().tempoSource == engine::TempoSource::Clock);
}

}  // namespace tempo_tests
