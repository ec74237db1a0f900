// The controller paths of the audio thread inside an AudioThreadScope: set_cc defaults
// applied on program change and CC121, controller sweeps through conditions on many
// controllers (hd ones above 127, a 14-bit pair), controller-started regions, per-region
// pedals, aftertouch, bend, tempo commands and off_mode=time chokes. No allocation, no
// free, no lock.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "RtChecks.h"
#include "RtGuard.h"
#include "ScriptRun.h"
#include "catch.h"
#include "core/Limits.h"
#include "core/MidiEvent.h"
#include "core/Region.h"
#include "core/SampleData.h"
#include "engine/Engine.h"
#include "engine/parts/Program.h"

namespace controller_safety_tests {

using namespace spindle;

namespace {
constexpr double kRate = 48000.0;
constexpr int kBlock = 256;


Region looping(const SampleData& s) {
  Region r;
  r.sampleIndex = 0;
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 100;
  r.loopEnd = s.totalFrames - 100;
  r.ampeg.release = 0.02f;
  return r;
}

engine::Program makeProgram(const SampleData& s) {
  engine::Program p;
  p.samples.push_back(&s);
  controllers::ControllerDefault fine{2, 0.5f};
  fine.highResolution = true;
  p.controllerDefaults = {{1, 0.5f}, {226, 0.75f}, fine, {7, 1.0f}};
  Region many = looping(s);  // conditions on 12 CCs, an hd CC and the 14-bit pair
  for (uint16_t n = 20; n < 32; ++n) many.ccConditions.push_back({n, 0.0f, 0.5f});
  many.ccConditions.push_back({226, 0.5f, 1.0f});
  many.ccConditions.push_back({2, 0.25f, 1.0f});
  many.lochanaft = 0;
  many.hibpm = 400.0f;
  many.sustainCc = 67;
  many.group = 1;
  many.offBy = 2;
  many.offMode = OffMode::Time;
  many.offTime = 0.02f;
  p.regions.push_back(many);
  Region swept = looping(s);  // sounds only while CC1 is in its upper half
  swept.ccConditions = {{1, 0.5f, 1.0f}};
  swept.group = 2;
  swept.sostenutoCc = 69;
  p.regions.push_back(swept);
  Region up = looping(s);  // pedal noises: CC64 crossing into 0..63 / 64..127
  up.ccTriggers = {{64, 0.0f, 63 / 127.0f}};
  up.noKey = true;
  p.regions.push_back(up);
  Region down = looping(s);
  down.ccTriggers = {{64, 64 / 127.0f, 1.0f}};
  down.swVelPrevious = true;
  p.regions.push_back(down);
  p.prepare();
  return p;
}

// Built before the audio thread runs (building allocates).
std::vector<std::vector<MidiEvent>> makeScript() {
  std::vector<std::vector<MidiEvent>> blocks;
  std::vector<MidiEvent> notes;
  for (int key = 30; key < 90; ++key) notes.push_back(test::event(static_cast<uint32_t>(key), midi::kNoteOn, key, 100));
  blocks.push_back(notes);
  for (int b = 0; b < 16; ++b) {  // a sweep per block: CC1 and CC2/CC34, bend, aftertouch, pedals
    std::vector<MidiEvent> sweep;
    for (uint32_t f = 0; f < 128; ++f) {
      const int v = static_cast<int>((f + static_cast<uint32_t>(b) * 8) % 128);
      sweep.push_back(test::event(2 * f, midi::kControlChange, 1, v));
      sweep.push_back(test::event(2 * f, midi::kControlChange, f % 2 ? 2 : 34, v));
      sweep.push_back(test::event(2 * f + 1, midi::kPitchBend, v, v));
      sweep.push_back(test::event(2 * f + 1, midi::kChannelPressure, v, 0));
      sweep.push_back(test::event(2 * f + 1, midi::kPolyPressure, 40 + (v % 40), v));
      if (f % 16 == 0) sweep.push_back(test::event(2 * f + 1, midi::kControlChange, 64, v));
      if (f % 32 == 0) sweep.push_back(test::event(2 * f + 1, midi::kControlChange, 67, v));
      if (f % 32 == 8) sweep.push_back(test::event(2 * f + 1, midi::kControlChange, 69, v));
      if (f % 64 == 5) sweep.push_back(test::event(2 * f + 1, midi::kNoteOn, 40 + b, 90));
    }
    blocks.push_back(sweep);
  }
  std::vector<MidiEvent> offs{test::event(0, midi::kControlChange, midi::kCcResetControllers, 0)};
  for (int key = 0; key < 128; ++key) offs.push_back(test::event(1, midi::kNoteOff, key, 64));
  blocks.push_back(offs);
  for (int i = 0; i < 20; ++i) blocks.emplace_back();
  blocks.push_back({test::event(0, midi::kControlChange, midi::kCcAllSoundOff, 0)});
  for (int i = 0; i < 5; ++i) blocks.emplace_back();
  return blocks;
}
}  // namespace

TEST_CASE("Audio thread: controller sweeps, pedals and controller-started regions allocate nothing", "[rt][audio]") {
  INFO(test::rtGuardMode());
  const test::RamSample sine(24000, kRate, [](int64_t i) {  // a 330 Hz sine
    return 0.25f * static_cast<float>(std::sin(2.0 * 3.14159265358979323846 * 330.0 * static_cast<double>(i) / kRate));
  });
  const engine::Program program = makeProgram(sine.data);
  const auto script = makeScript();
  engine::Command tempo;
  tempo.type = engine::CommandType::SetTempo;
  tempo.value = 96.0f;
  const test::ScriptRun run = test::runScript(program, script, {kRate, kBlock, 128, engine::Quality::Hermite, 1},
                                              {tempo}, [](engine::Engine& e) { e.setTempo(100.0f); });
  const test::RtCounts& counts = run.counts;
  const engine::EngineStats& end = run.end;
  const float peak = run.peak;

  // The render did the work: note voices, swept-region voices and pedal noises started.
  CHECK(end.notesStarted > 100);
  CHECK(end.activeVoices == 0);
  CHECK(peak > 0.01f);
  CHECK(std::isfinite(peak));
  test::checkAudioThreadClean(counts);
}

}  // namespace controller_safety_tests
