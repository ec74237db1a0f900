// Where a host cuts its blocks never changes a frame: one song rendered in blocks of
// 256 frames, of 1024, of 1, 37 and 100, and of pseudo-random lengths 1 to 700 gives the
// same bytes. Each region exercises a stage that used to restart at a block's first
// frame: the read position of a pitched voice, LFOs and filter envelopes, a part's gain
// ramp (CC7), a bend glide (bend_smooth), the sinc kernel's band, and a voice's send to
// the shared reverb. (Controller modulation's control steps still start at each block's
// first frame: docs/ARCHITECTURE.md, "Block sizes".)
#include <cstring>
#include <functional>
#include <random>

#include "EngineTestSupport.h"
#include "catch.h"
#include "core/Controllers.h"

namespace block_cut_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr int64_t kFrames = 60000;

// A looped 233 Hz sine (at a frequency that never repeats within a block).
Region& loopedSine(TestProgram& tp, int lokey, int hikey) {
  Region& r = tp.addRegion(tp.addSample(std::make_unique<TestSample>(sine(233.0, kRate, 48000, 0.4f))), lokey, hikey);
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 0;
  r.loopEnd = 48000 - 1;
  r.pitchKeycenter = 60;
  r.ampeg.attack = 0.01f;
  r.ampeg.release = 0.05f;
  return r;
}

// Key 60: pitched (tune), with an amp envelope; 62: pitch, amp and filter LFOs and a
// filter envelope; 64: a low-pass sending to the reverb by CC91; 66: a bend glide; 68:
// the high sinc kernel under a pitch LFO.
const engine::Program* instrument(TestProgram& tp) {
  Region& pitched = loopedSine(tp, 60, 61);
  pitched.tune = 37.0f;
  pitched.ampeg.decay = 0.2f;
  pitched.ampeg.sustain = 50.0f;
  Region& lfos = loopedSine(tp, 62, 63);
  lfos.pitchlfo = {0.0f, 0.0f, 5.3f, 30.0f};
  lfos.amplfo = {0.0f, 0.0f, 3.1f, 4.0f};
  lfos.fillfo = {0.0f, 0.0f, 2.2f, 900.0f};
  lfos.cutoff = 1500.0f;
  lfos.fileg.attack = 0.1f;
  lfos.fileg.depth = 1200.0f;
  Region& sending = loopedSine(tp, 64, 65);
  sending.cutoff = 700.0f;
  sending.sends[static_cast<size_t>(SendBus::Reverb)] = EffectSend{0.0f, 100.0f, controllers::kReverbSend};
  Region& glide = loopedSine(tp, 66, 67);
  glide.bendSmooth = 40.0f;
  Region& sinc = loopedSine(tp, 68, 69);
  sinc.sampleQuality = 8;  // sinc, 16 taps a side
  sinc.pitchlfo = {0.0f, 0.0f, 4.0f, 20.0f};
  return tp.prepare();
}

std::vector<TimedEvent> song() {
  return {noteOn(0, 60),        noteOn(1000, 62, 90), cc(2000, 91, 100),   noteOn(2100, 64, 110),
          cc(9000, 7, 60),      noteOn(9100, 66),     bend(12000, 6000),   cc(20000, 7, 127),
          noteOn(21000, 68, 70), bend(30000, -3000),  noteOff(33000, 60),  noteOff(36000, 62),
          cc(40000, 7, 90),     noteOff(45000, 64),   noteOff(50000, 66),  noteOff(52000, 68)};
}

// The song through the engine in blocks of nextBlock() frames, each event at its frame
// in its block; left then right.
std::vector<float> render(const engine::Program* program, const std::function<int()>& nextBlock) {
  engine::EngineConfig config{kRate, 1024, 32, engine::Quality::Hermite, 1};
  engine::Engine engine(config);
  engine::Command set;
  set.type = engine::CommandType::SetProgram;
  set.program = program;
  REQUIRE(engine.postCommand(set));
  const std::vector<TimedEvent> events = song();
  std::vector<float> left(kFrames), right(kFrames);
  std::vector<MidiEvent> block;
  std::size_t next = 0;
  for (int64_t done = 0; done < kFrames;) {
    const int n = static_cast<int>(std::min<int64_t>(nextBlock(), kFrames - done));
    block.clear();
    for (; next < events.size() && events[next].frame < done + n; ++next) {
      block.push_back(events[next].event);
      block.back().frame = static_cast<uint32_t>(events[next].frame - done);
    }
    engine.process(block.data(), static_cast<int>(block.size()), left.data() + done, right.data() + done, n);
    done += n;
  }
  left.insert(left.end(), right.begin(), right.end());
  return left;
}

}  // namespace

TEST_CASE("a song renders the same bytes whatever the blocks' lengths", "[engine][blocks]") {
  TestProgram tp;
  const engine::Program* program = instrument(tp);
  const std::vector<float> reference = render(program, [] { return 256; });
  REQUIRE(reference.size() == 2 * static_cast<std::size_t>(kFrames));
  float peak = 0.0f;
  for (const float x : reference) peak = std::max(peak, std::fabs(x));
  CHECK(peak > 0.1f);
  std::mt19937 random(11);
  std::uniform_int_distribution<int> length(1, 700);
  const std::vector<std::pair<const char*, std::function<int()>>> cuts{
      {"1024", [] { return 1024; }}, {"1", [] { return 1; }},     {"37", [] { return 37; }},
      {"100", [] { return 100; }},   {"1..700", [&] { return length(random); }}};
  for (const auto& [name, next] : cuts) {
    const std::vector<float> out = render(program, next);
    REQUIRE(out.size() == reference.size());
    std::size_t differing = 0, first = 0;
    for (std::size_t i = 0; i < out.size(); ++i)
      if (std::memcmp(&out[i], &reference[i], sizeof(float)) != 0 && differing++ == 0) first = i % kFrames;
    INFO("blocks of " << name << ": " << differing << " values differ, the first at frame " << first);
    CHECK(differing == 0);
  }
}

}  // namespace block_cut_tests
