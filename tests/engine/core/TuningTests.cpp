// Part tunings: a KeyTuning set by command, and MIDI Tuning Standard messages decoded
// into tuning events (core/MidiTuning.h) and applied from their frame. A 440 Hz sine
// plays at pitch_keycenter 69; frequencies from zero crossings, tolerance 0.5 cent.
#include <array>
#include <vector>

#include "EngineTestSupport.h"
#include "catch.h"
#include "core/MidiTuning.h"

namespace tuning_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;

struct SineProgram {
  TestProgram tp;
  SineProgram() {
    const int s = tp.addSample(std::make_unique<TestSample>(sine(440.0, kRate, 200000)));
    tp.addRegion(s).pitchKeycenter = 69;
  }
};

std::vector<TimedEvent> sysex(int64_t frame, const std::vector<uint8_t>& bytes) {
  std::array<MidiEvent, mts::kMaxEvents> out{};
  const int n = mts::decode(bytes.data(), bytes.size(), 0, out.data(), static_cast<int>(out.size()));
  std::vector<TimedEvent> events;
  for (int i = 0; i < n; ++i) events.push_back({frame, out[static_cast<size_t>(i)]});
  return events;
}

std::vector<TimedEvent> join(std::vector<TimedEvent> a, const std::vector<TimedEvent>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

double cents(double hz, double reference) { return centsBetween(hz, reference); }

}  // namespace

TEST_CASE("MTS decoding: each form, the no-change triple, other SysEx ignored", "[engine][tuning]") {
  std::array<MidiEvent, mts::kMaxEvents> out{};
  const std::vector<uint8_t> single{0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x00, 0x02, 60, 61, 0x40, 0x00, 62, 0x7F, 0x7F, 0x7F, 0xF7};
  REQUIRE(mts::decode(single.data(), single.size(), 17, out.data(), 127) == 1);
  CHECK(out[0].status == midi::kTuneKey);
  CHECK(out[0].frame == 17);
  CHECK(out[0].data1 == 60);
  CHECK(out[0].data2 == 1);
  CHECK(out[0].parts == 0xFFFF);
  CHECK(out[0].cents == Approx(6150.0));
  const std::vector<uint8_t> bank{0xF0, 0x7E, 0x00, 0x08, 0x07, 0x01, 0x02, 0x01, 69, 69, 0x00, 0x01, 0xF7};
  REQUIRE(mts::decode(bank.data(), bank.size(), 0, out.data(), 127) == 1);
  CHECK(out[0].data2 == 0);  // non-real-time
  CHECK(out[0].cents == Approx(6900.0 + 100.0 / 16384.0));
  std::vector<uint8_t> octave{0xF0, 0x7E, 0x7F, 0x08, 0x08, 0x03, 0x00, 0x01};
  for (int pc = 0; pc < 12; ++pc) octave.push_back(static_cast<uint8_t>(0x40 + pc - 6));
  octave.push_back(0xF7);
  REQUIRE(mts::decode(octave.data(), octave.size(), 0, out.data(), 127) == 12);
  CHECK(out[0].parts == ((1u << 14) | (1u << 15) | 1u));
  CHECK(out[0].cents == -6.0f);
  CHECK(out[11].cents == 5.0f);
  const std::vector<uint8_t> reset{0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7};
  CHECK(mts::decode(reset.data(), reset.size(), 0, out.data(), 127) == 0);
  const std::vector<uint8_t> cut{0xF0, 0x7F, 0x7F, 0x08, 0x09, 0x00, 0x00, 0x01, 0x40};
  CHECK(mts::decode(cut.data(), cut.size(), 0, out.data(), 127) == 0);
}

TEST_CASE("a real-time single-note change retunes the sounding note from its frame", "[engine][tuning]") {
  SineProgram p;
  constexpr int64_t kAt = 24100;  // inside a 256-frame block
  // Key 69 -> semitone 69 + 8192/16384: 50 cents up.
  const auto change = sysex(kAt, {0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x00, 0x01, 69, 69, 0x40, 0x00, 0xF7});
  Renderer tuned, plain;
  tuned.setProgram(p.tp.prepare());
  plain.setProgram(p.tp.prepare());
  tuned.run(join({noteOn(0, 69)}, change), 48000);
  plain.run({noteOn(0, 69)}, 48000);
  CHECK(std::fabs(cents(measureHz(tuned.left, 2000, 24000, kRate), 440.0)) < 0.5);
  CHECK(std::fabs(cents(measureHz(tuned.left, 24200, 47000, kRate), 440.0 * std::exp2(50.0 / 1200.0))) < 0.5);
  size_t firstDifferent = 0;
  while (firstDifferent < tuned.left.size() && tuned.left[firstDifferent] == plain.left[firstDifferent]) ++firstDifferent;
  CHECK(firstDifferent >= static_cast<size_t>(kAt));
  CHECK(firstDifferent <= static_cast<size_t>(kAt) + 1);
  // A note started after the change plays the new pitch.
  tuned.run({noteOff(48000, 69), noteOn(60000, 69)}, 48000);
  CHECK(std::fabs(cents(measureHz(tuned.left, 64000, 90000, kRate), 440.0 * std::exp2(50.0 / 1200.0))) < 0.5);
}

TEST_CASE("a non-real-time change leaves the sounding note and tunes the next", "[engine][tuning]") {
  SineProgram p;
  Renderer r;
  r.setProgram(p.tp.prepare());
  // Key 69 -> 71 semitones (bank form, 7E).
  const auto change = sysex(10000, {0xF0, 0x7E, 0x7F, 0x08, 0x07, 0x00, 0x00, 0x01, 69, 71, 0x00, 0x00, 0xF7});
  r.run(join({noteOn(0, 69), noteOff(30000, 69), noteOn(40000, 69)}, change), 80000);
  CHECK(std::fabs(cents(measureHz(r.left, 12000, 29000, kRate), 440.0)) < 0.5);
  CHECK(std::fabs(cents(measureHz(r.left, 42000, 79000, kRate), 440.0 * std::exp2(2.0 / 12.0))) < 0.5);
}

TEST_CASE("scale/octave messages tune the parts of their channel mask", "[engine][tuning]") {
  SineProgram p;
  std::vector<uint8_t> oneByte{0xF0, 0x7F, 0x7F, 0x08, 0x08, 0x00, 0x00, 0x02};  // channel 2 (part 1)
  for (int pc = 0; pc < 12; ++pc) oneByte.push_back(pc == 9 ? 0x40 + 20 : (pc == 0 ? 0x40 - 30 : 0x40));
  oneByte.push_back(0xF7);
  // Part 1's A is 20 cents up and its C 30 cents down; part 0 plays 12-TET.
  Renderer alone;
  alone.setProgram(p.tp.prepare(), 1);
  alone.run(join({noteOn(0, 81, 100, 1), noteOff(11000, 81, 1), noteOn(14000, 60, 100, 1)}, sysex(0, oneByte)), 36000);
  CHECK(std::fabs(cents(measureHz(alone.left, 1000, 10000, kRate), 880.0 * std::exp2(20.0 / 1200.0))) < 0.5);
  CHECK(std::fabs(cents(measureHz(alone.left, 16000, 35000, kRate), 261.6255653 * std::exp2(-30.0 / 1200.0))) < 0.5);
  Renderer part0;
  part0.setProgram(p.tp.prepare(), 0);
  part0.run(join({noteOn(0, 69, 100, 0)}, sysex(0, oneByte)), 24000);
  CHECK(std::fabs(cents(measureHz(part0.left, 1000, 23000, kRate), 440.0)) < 0.5);

  std::vector<uint8_t> twoBytes{0xF0, 0x7E, 0x7F, 0x08, 0x09, 0x00, 0x00, 0x01};  // channel 1 (part 0)
  for (int pc = 0; pc < 12; ++pc) {
    const int v = pc == 9 ? 0x2000 + 0x1000 : 0x2000;  // A: +50 cents
    twoBytes.push_back(static_cast<uint8_t>(v >> 7));
    twoBytes.push_back(static_cast<uint8_t>(v & 0x7F));
  }
  twoBytes.push_back(0xF7);
  Renderer two;
  two.setProgram(p.tp.prepare(), 0);
  two.run(join({noteOn(100, 57)}, sysex(0, twoBytes)), 24000);
  CHECK(std::fabs(cents(measureHz(two.left, 1000, 23000, kRate), 220.0 * std::exp2(50.0 / 1200.0))) < 0.5);
}

TEST_CASE("setPartTuning gives one part its keys' pitches; unmapped keys start nothing", "[engine][tuning]") {
  SineProgram p;
  Renderer r;
  r.setProgram(p.tp.prepare(), 0);
  KeyTuning t = KeyTuning::equalTemperament();
  for (int k = 0; k < 128; ++k) t.setKey(k, 6900.0 + (k - 69) * 1200.0 / 19.0);
  t.setKey(70, 7000.0, false);
  REQUIRE(r.engine.setPartTuning(0, t));
  r.run({noteOn(0, 74), noteOff(20000, 74), noteOn(24000, 70)}, 48000);
  CHECK(std::fabs(cents(measureHz(r.left, 1000, 19000, kRate), 440.0 * std::exp2(5.0 / 19.0))) < 0.5);
  double energy = 0.0;
  for (size_t i = 24000; i < 48000; ++i) energy += static_cast<double>(r.left[i]) * static_cast<double>(r.left[i]);
  CHECK(energy == 0.0);
}

}  // namespace tuning_tests
