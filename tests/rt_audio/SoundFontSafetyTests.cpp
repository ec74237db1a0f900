// A General MIDI SoundFont (the TimGM6mb fixture) on all 16 parts inside an
// AudioThreadScope: bank selects and program changes on every block pick presets,
// channel 10 plays the drum kit, RPN 0 sets bend ranges, pitch bends, the modulation
// wheel and channel pressure move the vibrato, CC91 and CC93 send to the reverb and the
// chorus (both running), chords start and stop. No allocation, no free, no lock; every
// note finds its preset's regions.
#include <cmath>
#include <vector>

#include "Fixtures.h"
#include "RtChecks.h"
#include "ScriptRun.h"
#include "session/Loader.h"
#include "catch.h"
#include "core/MidiEvent.h"

namespace sound_font_safety_tests {

using namespace spindle;

namespace {

constexpr int kBlocks = 48;

void controller(std::vector<MidiEvent>& e, uint32_t frame, int channel, int cc, int value) {
  e.push_back(test::event(frame, static_cast<uint8_t>(midi::kControlChange | channel), cc, value));
}

std::vector<std::vector<MidiEvent>> makeScript() {
  std::vector<std::vector<MidiEvent>> blocks;
  for (int b = 0; b < kBlocks; ++b) {
    std::vector<MidiEvent> e;
    for (int ch = 0; ch < 16; ++ch) {
      const auto status = [&](uint8_t kind) { return static_cast<uint8_t>(kind | ch); };
      if (b % 8 == 0) {
        controller(e, 0, ch, midi::kCcBankSelect, b % 16 == 0 ? 0 : 1);  // bank 1 is missing: falls back
        e.push_back(test::event(1, status(midi::kProgramChange), (b * 5 + ch * 8) % 128, 0));
        controller(e, 2, ch, midi::kCcRpnMsb, 0);
        controller(e, 2, ch, midi::kCcRpnLsb, 0);
        controller(e, 3, ch, midi::kCcDataEntry, 2 + ch % 10);
        controller(e, 4, ch, 91, 40 + (b * 3 + ch * 5) % 88);  // reverb send
        controller(e, 5, ch, 93, 20 + (b * 7 + ch * 3) % 108);  // chorus send
      }
      if (b % 8 == 1)
        for (int k = 0; k < 4; ++k) e.push_back(test::event(10, status(midi::kNoteOn), 36 + ch * 3 + k * 4, 100));
      if (b % 8 == 6)
        for (int k = 0; k < 4; ++k) e.push_back(test::event(20, status(midi::kNoteOff), 36 + ch * 3 + k * 4, 0));
      const int sweep = (b * 13 + ch * 7) % 128;
      e.push_back(test::event(128, status(midi::kPitchBend), 0, sweep));
      controller(e, 130, ch, 1, sweep);
      e.push_back(test::event(132, status(midi::kChannelPressure), sweep, 0));
    }
    blocks.push_back(e);
  }
  for (int i = 0; i < 200; ++i) blocks.emplace_back();  // 1 s for the releases
  return blocks;
}

}  // namespace

TEST_CASE("Audio thread: a General MIDI SoundFont on 16 parts, with program changes, allocates nothing", "[rt][audio][fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sf2/TimGM6mb.sf2");
  INFO(test::rtGuardMode());
  stream::PoolOptions whole;
  whole.preloadFrames = -1;  // no disk thread here: every sample whole in RAM
  session::Loader loader(whole);
  const session::Loader::Result loaded = loader.load(fixtures / "sf2" / "TimGM6mb.sf2");
  REQUIRE(loaded.program);
  REQUIRE(loaded.program->presets.size() == 136);
  std::vector<engine::Command> parts;
  for (int p = 1; p < 16; ++p) {
    engine::Command set;
    set.type = engine::CommandType::SetProgram;
    set.part = static_cast<int8_t>(p);
    set.program = loaded.program.get();
    parts.push_back(set);
  }
  const test::ScriptRun run =
      test::runScript(*loaded.program, makeScript(), {48000.0, 256, 512, engine::Quality::Hermite, 1}, parts);

  // 6 rounds of 4 notes on 16 parts, each note at least one zone of its preset.
  CHECK(run.end.notesStarted >= 6 * 4 * 16);
  CHECK(run.peak > 0.01f);
  CHECK(std::isfinite(run.peak));
  CHECK(run.end.effectsSounding);  // the reverb's tail outlasts the releases
  test::checkAudioThreadClean(run.counts);
}

}  // namespace sound_font_safety_tests
