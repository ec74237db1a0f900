// The SFZ v2 synthesis paths of the audio thread inside an AudioThreadScope: flex EGs
// (one replacing ampeg, its points moved by a controller), LFOs of every wave with
// steps, sub-waves, a sample-and-hold on the cutoff and one LFO moving another's rate,
// every filter type with the second filter and shelving EQ bands, loop_count and
// note_selfmask, while controllers sweep the LFO depths and rates; and
// dynamic ampeg/fileg and flex EGs followed by controllers, polyphony at every scope,
// offset_mode=percent, release_key regions under the sustain pedal; oscillator playback
// (oscillator_* : phase, random phase, unison, ring, FM under a pitch LFO, each
// quality, a file played as a table). No allocation, no free, no lock.
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

namespace synthesis_safety_tests {

using namespace spindle;

namespace {
constexpr double kRate = 48000.0;
constexpr int kBlock = 256;


CcModulation connection(uint16_t cc, ModTarget target, float depth, uint8_t lfo = 0, uint8_t eg = 0, uint8_t sub = 0) {
  CcModulation m{cc, target, 0, depth};
  m.lfo = lfo;
  m.eg = eg;
  m.sub = sub;
  return m;
}

// One region per filter type, each with the whole synthesis set.
engine::Program makeProgram(const SampleData& s) {
  engine::Program p;
  p.samples.push_back(&s);
  for (int type = 1; type <= static_cast<int>(FilterType::Brf2pSv); ++type) {
    Region r;
    r.sampleIndex = 0;
    r.lokey = r.hikey = static_cast<uint8_t>(30 + type);
    r.loopMode = LoopMode::LoopContinuous;
    r.loopModeSet = true;
    r.loopStart = 1000;
    r.loopEnd = 5799;
    r.loopCount = 40;
    r.notePolyphony = 1;
    r.filType = static_cast<FilterType>(type);
    r.cutoff = 2000.0f;
    r.resonance = 12.0f;
    r.filGain = 6.0f;
    r.fil2Type = FilterType::Hsh;
    r.cutoff2 = 4000.0f;
    r.fil2Gain = -6.0f;
    r.eq[0].gain = 6.0f;
    r.eq[0].type = EqType::LowShelf;
    r.eq[2].gain = -6.0f;
    r.eq[2].type = EqType::HighShelf;
    r.ampeg.decayShape = -4.0f;
    r.ampeg.dynamic = r.fileg.dynamic = 1.0f;
    r.fileg.depth = 600.0f;
    r.fileg.decay = 0.1f;
    r.offsetPercent = true;
    r.offset = 5;
    r.instrumentPolyphony = 40;
    r.masterPolyphony = 30;
    r.groupBlockPolyphony = 10;
    r.groupBlock = static_cast<uint32_t>(type % 2);
    r.regionPolyphony = 2;
    FlexEg amp;
    amp.dynamic = 1.0f;
    amp.ampeg = 1.0f;
    amp.sustain = 2.0f;
    amp.points = 4;
    amp.point[1] = {0.01f, 1.0f, 2.0f};
    amp.point[2] = {0.05f, 0.6f, -2.0f};
    amp.point[3] = {0.05f, 0.0f, 0.0f};
    amp.freqLfo[1] = 3.0f;
    FlexEg pitch;
    pitch.number = 2;
    pitch.points = 2;
    pitch.sustain = 1.0f;
    pitch.point[1] = {0.2f, 1.0f, 0.0f};
    pitch.depth[static_cast<size_t>(ModTarget::Pitch)] = 50.0f;
    r.egs = {amp, pitch};
    if (type % 2 == 0) r.egs = {pitch};  // ampeg itself, dynamic
    for (int k = 0; k < 3; ++k) {
      FlexLfo lfo;
      lfo.number = k + 1;
      lfo.freq = 2.0f + static_cast<float>(k);
      lfo.wave = static_cast<float>(k == 2 ? 12 : type % 8);
      lfo.delay = 0.01f;
      lfo.fade = 0.05f;
      lfo.sub[0].wave = 6.0f;
      lfo.sub[0].ratio = 3.0f;
      r.lfos.push_back(lfo);
    }
    r.lfos[0].depth[static_cast<size_t>(ModTarget::Pitch)] = 30.0f;
    r.lfos[1].steps = 4;
    r.lfos[1].step = {100.0f, -50.0f, 0.0f, 50.0f};
    r.lfos[1].depth[static_cast<size_t>(ModTarget::Volume)] = 3.0f;
    r.lfos[2].depth[static_cast<size_t>(ModTarget::Cutoff)] = 1200.0f;
    r.lfos[2].depth[static_cast<size_t>(ModTarget::Cutoff2)] = 600.0f;
    r.lfos[2].depth[static_cast<size_t>(ModTarget::Eq1Gain)] = 3.0f;
    r.lfos[2].freqLfo[1] = 2.0f;
    r.ccModulations[0] = connection(20, ModTarget::Pitch, 40.0f, 1);
    r.ccModulations[1] = connection(21, ModTarget::LfoFreq, 6.0f, 2);
    r.ccModulations[2] = connection(22, ModTarget::LfoFreqLfo, 4.0f, 3, 0, 1);
    r.ccModulations[3] = connection(23, ModTarget::EgTime, 0.02f, 0, 1, 1);
    r.ccModulations[4] = connection(24, ModTarget::Resonance2, 6.0f);
    r.ccModulations[5] = connection(25, ModTarget::AmpegRelease, 0.05f);
    r.ccModulations[6] = connection(25, ModTarget::AmpegSustain, -40.0f);
    r.ccModulations[7] = connection(26, ModTarget::FilegDecay, 0.2f);
    r.ccModulations[8] = connection(26, ModTarget::FilegDepth, 600.0f);
    r.ccModulations[9] = connection(25, ModTarget::EgLevel, 0.3f, 0, 1, 2);
    r.ccModulationCount = 10;
    p.regions.push_back(r);
  }
  Region release = p.regions.front();  // a release_key region on the first key
  release.trigger = Trigger::ReleaseKey;
  release.rtDead = 1;  // whether or not the polyphony limits stole the note's own voice
  release.end = 4799;  // a one-shot of 0.1 s: over before the script ends
  p.regions.push_back(release);
  p.prepare();
  return p;
}

std::vector<std::vector<MidiEvent>> makeScript() {
  std::vector<std::vector<MidiEvent>> blocks;
  for (int b = 0; b < 60; ++b) {
    std::vector<MidiEvent> events;
    for (uint32_t f = 0; f < 256; f += 16) {
      const int v = static_cast<int>((f / 2 + static_cast<uint32_t>(b) * 11) % 128);
      for (int cc = 20; cc <= 26; ++cc) events.push_back(test::event(f, midi::kControlChange, cc, v));
    }
    if (b % 4 == 2) events.push_back(test::event(0, midi::kControlChange, 64, 127));
    if (b % 4 == 0)  // every key, at falling velocities: note_selfmask keeps the louder voices
      for (int key = 31; key < 54; ++key)
        events.push_back(test::event(static_cast<uint32_t>(key), midi::kNoteOn, key, 127 - b));
    if (b % 4 == 3) {  // the note-offs under the pedal (release_key sounds), then the pedal up
      for (int key = 31; key < 54; ++key) events.push_back(test::event(5, midi::kNoteOff, key, 0));
      events.push_back(test::event(200, midi::kControlChange, 64, 0));
    }
    blocks.push_back(events);
  }
  for (int i = 0; i < 80; ++i) blocks.emplace_back();  // 0.43 s: every EG's release runs out
  return blocks;
}
}  // namespace

TEST_CASE("Audio thread: flex EGs, LFOs, every filter type and EQ shelves allocate nothing", "[rt][audio]") {
  INFO(test::rtGuardMode());
  const test::RamSample saw(48000, kRate, [](int64_t i) { return 0.2f * static_cast<float>((i % 160) / 80.0 - 1.0); });
  const engine::Program program = makeProgram(saw.data);
  const test::ScriptRun run = test::runScript(program, makeScript(), {kRate, kBlock, 256, engine::Quality::Hermite, 1});
  const test::RtCounts& counts = run.counts;
  const engine::EngineStats& end = run.end;
  const float peak = run.peak;

  CHECK(end.notesStarted == 23 * 15 + 15);  // 23 filter types, one region each, and release_key: 15 rounds
  CHECK(end.activeVoices == 0);  // every flex EG ran out after its note-off
  CHECK(peak > 0.01f);
  CHECK(std::isfinite(peak));
  test::checkAudioThreadClean(counts);
}

namespace {

// One region per oscillator setting, keys 60..; the table is *sine's (oscillator=true),
// the last region plays `file` as a table (oscillator=on).
engine::Program makeOscillatorProgram(const SampleData& table, const SampleData& file) {
  engine::Program p;
  p.samples = {&table, &file};
  const auto add = [&](int multi, int mode, float phase, int quality) {
    Region r;
    r.sampleIndex = 0;
    r.lokey = r.hikey = static_cast<uint8_t>(60 + p.regions.size());
    r.loopMode = LoopMode::LoopContinuous;
    r.loopModeSet = true;
    r.oscillatorMulti = multi;
    r.oscillatorMode = mode;
    r.oscillatorPhase = phase;
    r.oscillatorQuality = quality;
    r.oscillatorDetune = 30.0f;
    r.oscillatorModDepth = 80.0f;
    r.ampeg.release = 0.05f;
    p.regions.push_back(r);
  };
  add(1, 0, 0.25f, -1);
  add(1, 0, -1.0f, 0);
  add(9, 0, -1.0f, 1);
  add(2, 0, 0.0f, 2);
  add(1, 2, 0.5f, 3);
  add(3, 1, 0.0f, -1);
  p.regions.back().pitchlfo.freq = 5.0f;  // per-frame increments into the bank
  p.regions.back().pitchlfo.depth = 50.0f;
  add(3, 0, 0.0f, -1);
  p.regions.back().sampleIndex = 1;
  p.regions.back().oscillator = 1;
  p.prepare();
  return p;
}

}  // namespace

TEST_CASE("Audio thread: oscillator playback (unison, ring, FM, phases, qualities) allocates nothing",
          "[rt][audio]") {
  INFO(test::rtGuardMode());
  test::RamSample table(1024, 1024 * 261.6255653, [](int64_t i) {
    return static_cast<float>(std::sin(2.0 * 3.14159265358979 * static_cast<double>(i) / 1024.0));
  });
  table.data.oscillator = true;
  const test::RamSample file(600, kRate, [](int64_t i) { return 0.5f * static_cast<float>((i % 600) / 300.0 - 1.0); });
  const engine::Program program = makeOscillatorProgram(table.data, file.data);
  std::vector<std::vector<MidiEvent>> script;
  for (int b = 0; b < 40; ++b) {
    std::vector<MidiEvent> events;
    if (b % 8 == 0)
      for (int key = 60; key < 67; ++key) events.push_back(test::event(static_cast<uint32_t>(key), midi::kNoteOn, key, 100));
    if (b % 8 == 6)
      for (int key = 60; key < 67; ++key) events.push_back(test::event(9, midi::kNoteOff, key, 0));
    events.push_back(test::event(17, midi::kPitchBend, b * 3 % 128, 64));
    script.push_back(events);
  }
  for (int i = 0; i < 20; ++i) script.emplace_back();
  const test::ScriptRun run = test::runScript(program, script, {kRate, kBlock, 64, engine::Quality::Hermite, 1});
  CHECK(run.end.notesStarted == 7 * 5);
  CHECK(run.end.activeVoices == 0);
  CHECK(run.peak > 0.1f);
  CHECK(std::isfinite(run.peak));
  test::checkAudioThreadClean(run.counts);
}

}  // namespace synthesis_safety_tests
