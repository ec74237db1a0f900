// The bus delay's tempo-synced taps (BusParam::DelayBeatsL/R/C): an echo lands at beats
// x 60 / tempo seconds, follows the engine's tempo, and glides to a new time without a
// click; through the engine, a set tempo and MIDI clocks move it.
#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "EngineTestSupport.h"
#include "engine/effects/BusEffectState.h"

namespace bus_delay_sync_tests {

using namespace spindle;
using namespace spindle::test;
using spindle::engine::BusEffectState;

namespace {

constexpr double kRate = 48000.0;

// A left tap of `beats` beats at full level, its echo alone (dry 0), the right tap silent.
BusEffect syncedDelay(float beats) {
  BusEffect e;
  e.type = BusEffectType::Delay;
  e.values[static_cast<size_t>(BusParam::DelayBeatsL)] = beats;
  e.values[static_cast<size_t>(BusParam::DelayLevelR)] = 0.0f;
  e.values[static_cast<size_t>(BusParam::DelayDry)] = 0.0f;
  return e;
}

// `input` through the effect in blocks of 256 frames; the tempo is tempoAt(first frame of the block).
template <class TempoAt>
std::vector<float> process(const BusEffect& effect, std::vector<float> input, TempoAt tempoAt) {
  auto state = std::make_unique<BusEffectState>();
  state->allocate(effect);
  state->start(effect, nullptr, kRate);
  std::vector<float> right(input.size(), 0.0f);
  for (size_t at = 0; at < input.size(); at += 256) {
    const int n = static_cast<int>(std::min<size_t>(256, input.size() - at));
    state->setTempo(tempoAt(at));
    state->process(effect, nullptr, input.data() + at, right.data() + at, n);
  }
  return input;
}

std::vector<float> impulse(size_t frames) {
  std::vector<float> v(frames, 0.0f);
  v[0] = 1.0f;
  return v;
}

size_t loudest(const std::vector<float>& v, size_t from) {
  size_t best = from;
  for (size_t i = from; i < v.size(); ++i)
    if (std::fabs(v[i]) > std::fabs(v[best])) best = i;
  return best;
}

}  // namespace

TEST_CASE("synced delay: one beat echoes at 24000 frames at 120 BPM and at 32000 at 90", "[engine][effects][delay]") {
  const BusEffect e = syncedDelay(1.0f);
  const std::vector<float> at120 = process(e, impulse(40000), [](size_t) { return 120.0f; });
  const std::vector<float> at90 = process(e, impulse(40000), [](size_t) { return 90.0f; });
  CHECK(std::abs(static_cast<long>(loudest(at120, 1)) - 24000) <= 2);
  CHECK(std::abs(static_cast<long>(loudest(at90, 1)) - 32000) <= 2);
  CHECK(at120[24000] == Approx(1.0f).margin(0.01));
  CHECK(at90[loudest(at90, 1)] == Approx(1.0f).margin(0.01));
  // Half a beat on the right tap, time in seconds on the left: each its own time.
  BusEffect mixed = syncedDelay(0.0f);
  mixed.values[static_cast<size_t>(BusParam::DelayTimeL)] = 0.1f;
  const std::vector<float> seconds = process(mixed, impulse(40000), [](size_t) { return 90.0f; });
  CHECK(loudest(seconds, 1) == 4800);
}

TEST_CASE("synced delay: a tempo change glides the echo to its new time without a click", "[engine][effects][delay]") {
  constexpr size_t kFrames = 4 * 48000, kChange = 60000;
  std::vector<float> input(kFrames);
  for (size_t i = 0; i < kFrames; ++i)
    input[i] = 0.5f * static_cast<float>(std::sin(2.0 * std::numbers::pi * 440.0 * static_cast<double>(i) / kRate));
  const float own = maxJump(input, 1, kFrames);
  for (const auto& [from, to] : {std::pair{120.0f, 90.0f}, std::pair{90.0f, 120.0f}}) {
    const std::vector<float> out = process(syncedDelay(1.0f), input, [&](size_t at) { return at < kChange ? from : to; });
    // Before the change the echo is the input one beat late; long after it, one beat of the new tempo.
    const auto before = static_cast<size_t>(std::lround(60.0 / static_cast<double>(from) * kRate));
    const auto after = static_cast<size_t>(std::lround(60.0 / static_cast<double>(to) * kRate));
    for (size_t i = 40000; i < kChange; i += 997) CHECK(out[i] == Approx(input[i - before]).margin(1e-4));
    for (size_t i = 150000; i < kFrames; i += 997) CHECK(out[i] == Approx(input[i - after]).margin(1e-3));
    // No step larger than the signal's own, but for the glide's change of speed (at most 25 %).
    const float during = maxJump(out, kChange - 1000, 150000);
    INFO(from << " to " << to << " BPM: the input's largest step " << own << ", the echo's while it glides " << during);
    CHECK(during <= 1.26f * own);
    CHECK(during >= 0.7f * own);  // the echo sounds all along
  }
}

TEST_CASE("synced delay: the engine's tempo reaches a part's bus: a set tempo and MIDI clocks", "[engine][effects][delay]") {
  TestProgram t;
  std::vector<float> click(4800, 0.0f);
  click[0] = 1.0f;
  t.addRegion(t.addSample(std::make_unique<TestSample>(click)));
  t.program->busLayout.effects.push_back(syncedDelay(1.0f));
  t.prepare();
  SECTION("a set tempo of 90 BPM") {
    Renderer r;
    r.setProgram(t.program.get());
    engine::Command c;
    c.type = engine::CommandType::SetTempo;
    c.value = 90.0f;
    r.post(c);
    r.run({noteOn(1000, 60)}, 40000);
    CHECK(std::abs(static_cast<long>(loudest(r.left, 1001)) - 33000) <= 2);
  }
  SECTION("MIDI clocks at 90 BPM") {
    Renderer r;
    r.setProgram(t.program.get());
    std::vector<TimedEvent> events;
    for (int k = 0; k < 60; ++k)
      events.push_back({std::llround(k * 60.0 * kRate / (90.0 * 24)), MidiEvent{0, midi::kClock, 0, 0}});
    events.push_back(noteOn(8000, 60));  // the tempo measured by then
    r.run(events, 48000);
    CHECK(std::abs(static_cast<long>(loudest(r.left, 8001)) - 40000) <= 2);
  }
}

}  // namespace bus_delay_sync_tests
