// A part's sends to the shared reverb and chorus (CC91, CC93) move smoothly: a step in
// the controller ramps the voice's send over kGainRampSeconds instead of jumping, so
// the effect's return starts without a click. Measured on the return alone (the render
// with the send stepped minus the render without it) of a 100 Hz sine, the step at a
// crest: the largest change between two frames while the return starts stays within
// 1.5 times the return's own in its steady state (the reverb's build-up alone reaches
// 1.1 times with a 50 ms ramp). Without the ramp it was 32 times (reverb) and 47 times
// (chorus): the send stepped from nothing to the crest.
#include <cmath>

#include "EngineTestSupport.h"
#include "catch.h"
#include "core/Controllers.h"
#include "core/EffectParams.h"

namespace send_ramp_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr int64_t kStep = 24120;  // the controller moves at 0.5 s, at a crest of the sine

// The return of `bus`: key 60 held through a send driven by its controller, which jumps
// from 0 to 127 at kStep, minus the same render with the controller left at 0.
std::vector<float> returnOf(SendBus bus, int controller) {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(sine(100.0, kRate, 96000, 0.5f)));
  Region& r = tp.addRegion(s);
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 0;
  r.loopEnd = 96000 - 1;
  r.sends[static_cast<size_t>(bus)] = EffectSend{0.0f, 100.0f, static_cast<uint16_t>(controller)};
  const engine::Program* program = tp.prepare();
  std::vector<float> out[2];
  for (int k = 0; k < 2; ++k) {
    Renderer renderer(engine::EngineConfig{kRate, 256, 32, engine::Quality::Hermite, 1});
    renderer.setProgram(program);
    std::vector<TimedEvent> events = {noteOn(0, 60, 127)};
    if (k == 1) events.push_back(cc(kStep, controller, 127));
    renderer.run(events, 72000);
    out[k] = renderer.left;
  }
  std::vector<float> wet(out[0].size());
  for (size_t i = 0; i < wet.size(); ++i) wet[i] = out[1][i] - out[0][i];
  return wet;
}

}  // namespace

TEST_CASE("a step in a part's reverb or chorus send ramps: the return starts without a jump", "[engine][effects]") {
  for (const auto& [bus, controller] : {std::pair{SendBus::Reverb, controllers::kReverbSend},
                                        std::pair{SendBus::Chorus, controllers::kChorusSend}}) {
    const std::vector<float> wet = returnOf(bus, controller);
    const auto at = [](double seconds) { return static_cast<size_t>(seconds * kRate); };
    float level = 0.0f;
    for (size_t i = at(1.0); i < at(1.5); ++i) level = std::max(level, std::fabs(wet[i]));
    const float steady = maxJump(wet, at(1.0), at(1.5));
    const float onset = maxJump(wet, kStep - 10, kStep + at(0.2));
    INFO("bus " << static_cast<int>(bus) << ": return peak " << level << ", largest step while it starts " << onset
                << ", in its steady state " << steady);
    CHECK(level > 0.01f);
    CHECK(maxJump(wet, 0, kStep - 10) == 0.0f);  // nothing before the step
    CHECK(onset <= steady * 1.5f);
  }
}

TEST_CASE("the master gain scales the main output and glides to a new value without a jump", "[engine][effects]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(sine(440.0, kRate, 96000, 0.5f)));
  Region& r = tp.addRegion(s);
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 0;
  r.loopEnd = 96000 - 1;
  const engine::Program* program = tp.prepare();
  Renderer renderer(engine::EngineConfig{kRate, 256, 32, engine::Quality::Hermite, 1});
  renderer.setProgram(program);
  renderer.run({noteOn(0, 69, 127)}, 24064);
  engine::Command gain;
  gain.type = engine::CommandType::SetEffect;
  gain.count = static_cast<int32_t>(EffectParam::MasterGain);
  gain.value = -12.0f;
  renderer.post(gain);  // taken at the start of the next block, frame 24064
  renderer.run({}, 24000);
  const auto rms = [&](size_t from, size_t to) {
    double e = 0.0;
    for (size_t i = from; i < to; ++i) e += static_cast<double>(renderer.left[i]) * static_cast<double>(renderer.left[i]);
    return 10.0 * std::log10(e / static_cast<double>(to - from));
  };
  const double before = rms(12000, 24000), after = rms(30000, 48000);
  const float own = maxJump(renderer.left, 12000, 24000);
  INFO("before " << before << " dB, after " << after << " dB; largest step " << maxJump(renderer.left, 24000, 24600)
                 << " (the signal's own " << own << ")");
  CHECK(after - before == Approx(-12.0).margin(0.05));
  CHECK(maxJump(renderer.left, 24000, 24600) <= own);
}

}  // namespace send_ramp_tests
