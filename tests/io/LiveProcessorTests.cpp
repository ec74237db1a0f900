#include <vector>

#include "catch.h"
#include "engine/core/EngineTestSupport.h"
#include "io/LiveProcessor.h"

namespace live_processor_tests {

using namespace spindle;
using io::CycleStart;
using io::LiveProcessor;
using io::NoteLatency;

namespace {

// An engine playing a one-frame impulse on every key, and a LiveProcessor around it.
struct Rig {
  test::TestProgram program;
  engine::Engine engine{engine::EngineConfig{}};
  LiveProcessor live{engine};
  std::vector<float> left = std::vector<float>(1024), right = std::vector<float>(1024);

  Rig() {
    std::vector<float> impulse(64, 0.0f);
    impulse[0] = 1.0f;
    program.addRegion(program.addSample(std::make_unique<test::TestSample>(impulse))).loopMode = LoopMode::OneShot;
    engine::Command c;
    c.type = engine::CommandType::SetProgram;
    c.program = program.prepare();
    REQUIRE(engine.postCommand(c));
  }
  void cycle(uint64_t frameTime, int frames, const std::vector<std::pair<uint32_t, int>>& noteOns = {}) {
    live.beginCycle(CycleStart{frameTime, frames, 0, 48000.0});
    for (const auto& [offset, key] : noteOns) {
      const uint8_t bytes[3] = {0x90, static_cast<uint8_t>(key), 100};
      live.addPortEvent(offset, bytes, 3);
    }
    live.endCycle(left.data(), right.data());
  }
  int firstSounding(int frames) const {
    for (int i = 0; i < frames; ++i)
      if (left[static_cast<size_t>(i)] != 0.0f) return i;
    return -1;
  }
  std::vector<NoteLatency> notes() {
    std::vector<NoteLatency> out;
    NoteLatency n;
    while (live.popNoteLatency(n)) out.push_back(n);
    return out;
  }
};

}  // namespace

TEST_CASE("LiveProcessor: a port event sounds at its frame and reports zero engine frames", "[io][live]") {
  Rig rig;
  rig.live.setPlaybackLatency(100);
  rig.cycle(1000, 256, {{37, 60}});
  CHECK(rig.firstSounding(256) == 37);
  const auto notes = rig.notes();
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].eventFrame == 1037);
  CHECK(notes[0].firstFrame == 1037);
  CHECK(notes[0].engineFrames() == 0);
  CHECK(notes[0].totalFrames() == 100);
  CHECK(notes[0].key == 60);
  CHECK(rig.live.stats().latency.notes == 1);
}

TEST_CASE("LiveProcessor: every offset of the period, one note per block", "[io][live]") {
  Rig rig;
  for (uint32_t offset = 0; offset < 256; offset += 5) {
    rig.cycle(offset * 256, 256, {{offset, 40 + static_cast<int>(offset % 40)}});
    REQUIRE(rig.firstSounding(256) == static_cast<int>(offset));
  }
  for (const NoteLatency& n : rig.notes()) CHECK(n.engineFrames() == 0);
}

TEST_CASE("LiveProcessor: midi-thread events play one period after their timestamp", "[io][live]") {
  Rig rig;
  rig.cycle(1000, 256);
  REQUIRE(rig.live.midiInput(0).tryPush(io::TimedMidi{1010, MidiEvent{0, 0x90, 60, 100}}));  // due 1266
  REQUIRE(rig.live.midiInput(1).tryPush(io::TimedMidi{1300, MidiEvent{0, 0x90, 62, 100}}));  // due 1556
  rig.cycle(1256, 256);
  CHECK(rig.firstSounding(256) == 10);
  rig.cycle(1512, 256);
  CHECK(rig.firstSounding(256) == 44);
  const auto notes = rig.notes();
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].queueFrames() == 256);
  CHECK(notes[1].queueFrames() == 256);
  CHECK(notes[1].source == io::EventSource::MidiThread);
  CHECK(rig.live.stats().lateEvents == 0);
}

TEST_CASE("LiveProcessor: a late midi-thread event plays at once and is counted", "[io][live]") {
  Rig rig;
  rig.cycle(0, 256);
  REQUIRE(rig.live.midiInput(0).tryPush(io::TimedMidi{100, MidiEvent{0, 0x90, 60, 100}}));
  rig.cycle(2048, 256);  // a gap: the event's frame (356) has passed
  CHECK(rig.firstSounding(256) == 0);
  const auto s = rig.live.stats();
  CHECK(s.lateEvents == 1);
  CHECK(s.detectedXruns == 1);
  CHECK(s.gapFrames == 2048 - 256);
}

TEST_CASE("LiveProcessor: malformed port events are dropped, not played", "[io][live]") {
  Rig rig;
  rig.live.beginCycle(CycleStart{0, 256, 0, 48000.0});
  const uint8_t shortNote[2] = {0x90, 60};
  const uint8_t late[3] = {0x90, 61, 100};
  const uint8_t sysex[3] = {0xF0, 1, 0xF7};
  rig.live.addPortEvent(0, shortNote, 2);
  rig.live.addPortEvent(300, late, 3);
  rig.live.addPortEvent(1, sysex, 3);
  rig.live.endCycle(rig.left.data(), rig.right.data());
  CHECK(rig.firstSounding(256) == -1);
  CHECK(rig.live.stats().midiDropped == 2);
}

TEST_CASE("LiveProcessor: stats come from the audio thread's snapshot", "[io][live]") {
  Rig rig;
  rig.live.setConnected(true);
  rig.live.countBackendXrun();
  rig.cycle(0, 256, {{3, 60}});
  const auto s = rig.live.stats();
  CHECK(s.connected);
  CHECK(s.backendXruns == 1);
  CHECK(s.frames == 256);
  CHECK(s.noteOns == 1);
  CHECK(s.process.cycles == 1);
  CHECK(s.periodFrames == 256);
}

TEST_CASE("LiveProcessor: notes of a cycle after a frame gap or a reported xrun are marked", "[io][live]") {
  Rig rig;
  rig.cycle(0, 256, {{10, 60}});
  rig.cycle(256, 256, {{10, 61}});
  rig.cycle(768, 256, {{10, 62}});  // 256 frames missing: a gap
  rig.cycle(1024, 256, {{10, 63}});
  rig.live.countBackendXrun();
  rig.cycle(1280, 256, {{10, 64}});
  rig.cycle(1536, 256, {{10, 65}});
  const auto notes = rig.notes();
  REQUIRE(notes.size() == 6);
  const std::vector<bool> marked = {notes[0].afterXrun, notes[1].afterXrun, notes[2].afterXrun,
                                    notes[3].afterXrun, notes[4].afterXrun, notes[5].afterXrun};
  CHECK(marked == std::vector<bool>{false, false, true, false, true, false});
  CHECK(rig.live.stats().detectedXruns == 1);
  CHECK(io::formatNoteLatency(notes[2], 48000.0).find(" after-xrun") != std::string::npos);
  CHECK(io::formatNoteLatency(notes[3], 48000.0).find("xrun") == std::string::npos);
}

TEST_CASE("LiveProcessor: the host tempo of a cycle reaches lobpm/hibpm; 0 keeps the last", "[io][live]") {
  Rig rig;
  rig.program.program->regions[0].lobpm = 100.0f;  // single thread: the engine reads it in endCycle only
  const auto cycleAt = [&rig](uint64_t frameTime, double tempo) {
    CycleStart c{frameTime, 256, 0, 48000.0};
    c.tempo = tempo;
    rig.live.beginCycle(c);
    const uint8_t bytes[3] = {0x90, 60, 100};
    rig.live.addPortEvent(10, bytes, 3);
    rig.live.endCycle(rig.left.data(), rig.right.data());
    return rig.firstSounding(256);
  };
  CHECK(cycleAt(0, 0.0) == 10);    // no host tempo: 120
  CHECK(cycleAt(256, 90.0) == -1);  // JACK transport at 90 bpm
  CHECK(cycleAt(512, 0.0) == -1);   // transport stopped: still 90
  CHECK(cycleAt(768, 100.0) == 10);
}

TEST_CASE("LiveProcessor: a port's MTS sysex reaches the engine as its tuning events", "[io][live]") {
  Rig rig;
  rig.live.beginCycle(CycleStart{0, 256, 0, 48000.0});
  const uint8_t mts[] = {0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x00, 0x02, 60, 61, 0x00, 0x00, 62, 60, 0x00, 0x00, 0xF7};
  const uint8_t other[] = {0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7};  // GM on: not a tuning message
  rig.live.addPortEvent(10, mts, sizeof mts);
  rig.live.addPortEvent(20, other, sizeof other);
  rig.live.endCycle(rig.left.data(), rig.right.data());
  const auto s = rig.live.stats();
  CHECK(s.midiEvents == 2);  // keys 60 and 62
  CHECK(s.midiDropped == 0);
}

TEST_CASE("LiveProcessor: MIDI clocks on the port set the engine's tempo at their frames", "[io][live]") {
  for (const double bpm : {90.0, 140.0}) {
    Rig rig;
    const double interval = 60.0 * 48000.0 / (bpm * 24.0);
    int k = 0;
    for (uint64_t start = 0; start < 48000; start += 256) {
      rig.live.beginCycle(CycleStart{start, 256, 0, 48000.0});
      for (; std::llround(k * interval) < static_cast<long long>(start + 256); ++k) {
        const uint8_t clock = 0xF8;
        rig.live.addPortEvent(static_cast<uint32_t>(std::llround(k * interval) - static_cast<long long>(start)), &clock, 1);
      }
      rig.live.endCycle(rig.left.data(), rig.right.data());
    }
    INFO(bpm << " BPM, " << k << " clocks");
    CHECK(rig.engine.stats().tempo == Approx(bpm).margin(0.1));
    CHECK(rig.engine.stats().tempoSource == engine::TempoSource::Clock);
    CHECK(rig.live.stats().inputs[0].events == static_cast<uint64_t>(k));
  }
}

}  // namespace live_processor_tests
