// Controllers from SFZ text to sound: an instrument written here goes through the
// parser and the Loader into the Engine, which renders it. set_cc/set_hdcc defaults
// act before any MIDI controller; an on_locc64 region sounds at pedal up with no key held.
#include <cmath>
#include <fstream>
#include <vector>

#include "session/Loader.h"
#include "catch.h"
#include "core/MidiEvent.h"
#include "engine/Engine.h"
#include "stream/TestAudioFiles.h"

namespace controller_render_tests {

using spindle::session::Loader;

namespace {

constexpr int kBlock = 64;

// Renders `frames` frames; events given as (absolute frame, status, data1, data2).
std::vector<float> render(const spindle::engine::Program& program, std::vector<spindle::MidiEvent> events,
                          int frames) {
  using spindle::engine::EngineConfig;
  spindle::engine::Engine engine(EngineConfig{48000.0, kBlock, 64, spindle::engine::Quality::Linear, 1});
  spindle::engine::Command set;
  set.type = spindle::engine::CommandType::SetProgram;
  set.program = &program;
  REQUIRE(engine.postCommand(set));
  std::vector<float> left(static_cast<std::size_t>(frames)), right(left.size());
  std::size_t next = 0;
  for (int at = 0; at < frames; at += kBlock) {
    std::vector<spindle::MidiEvent> block;
    for (; next < events.size() && events[next].frame < static_cast<uint32_t>(at + kBlock); ++next) {
      block.push_back(events[next]);
      block.back().frame -= static_cast<uint32_t>(at);
    }
    engine.process(block.data(), static_cast<int>(block.size()), left.data() + at, right.data() + at, kBlock);
  }
  engine.collectAllPrograms([](const spindle::engine::Program*) {});
  return left;
}

}  // namespace

TEST_CASE("set_cc/set_hdcc defaults and an on_locc64 pedal-up region, from SFZ text to sound") {
  const auto dir = spindle::test::scratchDir("controller-render");
  spindle::test::writeWav16(dir / "half.wav", 1, std::vector<int16_t>(2400, 16384), 48000);  // 0.5 for 50 ms
  std::ofstream(dir / "c.sfz") << R"(<control> set_cc7=127 set_cc1=64 set_hdcc226=0.5
<global> amp_veltrack=0 sample=half.wav pitch_keytrack=0
<region> key=60 locc1=64
<region> key=62 locc1=65 amplitude=50
<region> key=64 lohdcc226=0.5 amplitude=25
<region> key=65 hihdcc226=0.49 amplitude=10
<region> key=-1 on_locc64=0 on_hicc64=63 amplitude=20
)";
  Loader loader;
  const Loader::Result loaded = loader.load(dir / "c.sfz");
  REQUIRE(loaded.program);
  REQUIRE(loaded.program->regions.size() == 5);
  CHECK(loaded.report.ok);

  using spindle::MidiEvent;
  const std::vector<MidiEvent> events = {
      {1000, 0x90, 60, 100}, {4000, 0x90, 62, 100}, {7000, 0x90, 64, 100}, {10000, 0x90, 65, 100},
      {13000, 0xB0, 64, 127}, {16001, 0xB0, 64, 0},  {20000, 0xB0, 64, 0}};
  const std::vector<float> out = render(*loaded.program, events, 24000);
  // set_cc1=64 opens locc1=64 (not locc1=65); set_hdcc226=0.5 opens lohdcc226=0.5.
  CHECK(out[1100] == Approx(0.5f).epsilon(1e-3));
  CHECK(out[4100] == 0.0f);
  CHECK(out[7100] == Approx(0.125f).epsilon(1e-3));
  CHECK(out[10100] == 0.0f);
  // Pedal down starts nothing; pedal up starts the pedal noise at the CC's frame; a
  // second 0 does not start it again.
  CHECK(out[16000] == 0.0f);
  CHECK(out[16001] == Approx(0.1f).epsilon(1e-3));
  CHECK(out[20100] == 0.0f);
}

}  // namespace controller_render_tests
