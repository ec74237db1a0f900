// Tuning on the audio thread inside an AudioThreadScope: MIDI Tuning Standard messages
// decoded there (as the JACK port's arrive) and applied, real-time ones retuning 60
// sounding voices every block, scale/octave messages on every part, and a part tuning
// table taken from the command FIFO. No allocation, no free, no lock.
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "RtChecks.h"
#include "RtGuard.h"
#include "ScriptRun.h"
#include "catch.h"
#include "core/MidiEvent.h"
#include "core/MidiTuning.h"
#include "core/Region.h"
#include "engine/Engine.h"
#include "engine/parts/Program.h"

namespace tuning_safety_tests {

using namespace spindle;

namespace {
constexpr double kRate = 48000.0;
constexpr int kBlock = 256;

engine::Program makeProgram(const SampleData& s) {
  engine::Program p;
  p.samples.push_back(&s);
  Region r;
  r.sampleIndex = 0;
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 100;
  r.loopEnd = s.totalFrames - 100;
  r.ampeg.release = 0.02f;
  p.regions.push_back(r);
  p.prepare();
  return p;
}

// One real-time single-note message for keys 30..89, every key moved by `cents`.
std::vector<uint8_t> singleNotes(int cents) {
  std::vector<uint8_t> m{0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x00, 60};
  for (int key = 30; key < 90; ++key) {
    const int fraction = cents * 16384 / 100;
    m.insert(m.end(), {static_cast<uint8_t>(key), static_cast<uint8_t>(key), static_cast<uint8_t>(fraction >> 7),
                       static_cast<uint8_t>(fraction & 0x7F)});
  }
  m.push_back(0xF7);
  return m;
}

std::vector<uint8_t> scaleOctave(int block) {
  std::vector<uint8_t> m{0xF0, 0x7F, 0x7F, 0x08, 0x09, 0x03, 0x7F, 0x7F};  // every channel, 2-byte form
  for (int pc = 0; pc < 12; ++pc) {
    const int v = 0x2000 + ((pc * 331 + block * 97) % 2000) - 1000;
    m.push_back(static_cast<uint8_t>(v >> 7));
    m.push_back(static_cast<uint8_t>(v & 0x7F));
  }
  m.push_back(0xF7);
  return m;
}

std::vector<std::vector<MidiEvent>> makeScript() {
  std::vector<std::vector<MidiEvent>> blocks;
  std::vector<MidiEvent> notes;
  for (int key = 30; key < 90; ++key) notes.push_back(test::event(static_cast<uint32_t>(key), midi::kNoteOn, key, 100));
  blocks.push_back(notes);
  for (int i = 0; i < 24; ++i) blocks.emplace_back();  // the decoding hook adds the tuning here
  std::vector<MidiEvent> offs;
  for (int key = 30; key < 90; ++key) offs.push_back(test::event(1, midi::kNoteOff, key, 64));
  blocks.push_back(offs);
  for (int i = 0; i < 10; ++i) blocks.emplace_back();
  return blocks;
}
}  // namespace

TEST_CASE("Audio thread: MTS messages decoded and applied, retuning sounding voices, allocate nothing", "[rt][audio]") {
  INFO(test::rtGuardMode());
  const test::RamSample sine(24000, kRate, [](int64_t i) {
    return 0.25f * static_cast<float>(std::sin(2.0 * 3.14159265358979323846 * 330.0 * static_cast<double>(i) / kRate));
  });
  const engine::Program program = makeProgram(sine.data);
  // Built before the audio thread runs; the hook decodes them inside the scope.
  std::vector<std::vector<uint8_t>> messages;
  for (int b = 0; b < 24; ++b) messages.push_back(b % 2 ? scaleOctave(b) : singleNotes(b * 3));
  static KeyTuning table = KeyTuning::equalTemperament();
  for (int k = 0; k < KeyTuning::kKeys; ++k) table.setKey(k, 6000.0 + (k - 60) * 1200.0 / 19.0, k % 7 != 3);
  engine::Command setTable;
  setTable.type = engine::CommandType::SetPartTuning;
  setTable.part = 1;
  setTable.tuning = &table;
  int block = 0;
  int decoded = 0;
  const test::ScriptRun run = test::runScript(program, makeScript(), {kRate, kBlock, 128, engine::Quality::Hermite, 1},
                                              {setTable}, [&](engine::Engine& e) {
    std::array<MidiEvent, mts::kMaxEvents> events;
    if (block >= 1 && block <= 24) {
      const std::vector<uint8_t>& m = messages[static_cast<size_t>(block - 1)];
      const int n = mts::decode(m.data(), m.size(), 10, events.data(), static_cast<int>(events.size()));
      decoded += n;
      std::array<float, kBlock> l{}, r{};
      e.process(events.data(), n, l.data(), r.data(), kBlock);
    }
    ++block;
  });
  CHECK(decoded == 12 * 60 + 12 * 12);
  CHECK(run.end.notesStarted == 60);
  CHECK(run.peak > 0.01f);
  test::checkAudioThreadClean(run.counts);
}

}  // namespace tuning_safety_tests
