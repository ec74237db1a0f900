// MPE (parts/Expression.h) rendered and measured: a lower zone set by the MPE
// Configuration Message, notes on member channels, each with its own bend, pressure
// and CC74; the frequency and level of each note read from the mix by a fine search
// of the windowed spectrum around the note's expected pitch.
#include <cmath>

#include "ModTestSupport.h"
#include "engine/parts/Expression.h"

namespace mpe_tests {

using namespace spindle;
using namespace spindle::test;
using Peak = spindle::test::TonePeak;

namespace {

constexpr double kRate = 48000.0;
constexpr double kBaseHz = 375.0;  // the sample: 128 frames a period, looped whole

std::vector<float> loopedSine() { return sine(kBaseHz, kRate, 128 * 400, 0.5f); }

TimedEvent pressure(int64_t frame, int value, int channel) {
  return {frame, MidiEvent{0, static_cast<uint8_t>(0xD0 | channel), static_cast<uint8_t>(value), 0}};
}

// The MPE Configuration Message: RPN 6 = members on channel 1 (lower) or 16 (upper).
std::vector<TimedEvent> mcm(int64_t frame, int members, bool upper = false) {
  const int ch = upper ? 15 : 0;
  return {cc(frame, 101, 0, ch), cc(frame, 100, 6, ch), cc(frame, 6, members, ch)};
}

void append(std::vector<TimedEvent>& to, const std::vector<TimedEvent>& more) { to.insert(to.end(), more.begin(), more.end()); }

Peak peakNear(const std::vector<float>& x, size_t from, size_t to, double expected) {
  return tonePeak(x, from, to, expected, kRate);
}

double expectedHz(int key, double bendCents) { return kBaseHz * std::pow(2.0, (key - 60) / 12.0 + bendCents / 1200.0); }

constexpr const char* kInstrument =
    "<region> sample=s.wav pitch_keycenter=60 loop_mode=loop_continuous loop_start=0 loop_end=51199 "
    "amplitude_oncc129=100 ampeg_release=0.01";

// Member channels 1, 2, 3 (MIDI 2, 3, 4): keys 60, 72, 84, pressure 127, 64, 32 sent
// before their note-ons.
std::vector<TimedEvent> threeNotes(bool withMcm) {
  std::vector<TimedEvent> song;
  if (withMcm) append(song, mcm(0, 15));
  const int keys[3] = {60, 72, 84}, pressures[3] = {127, 64, 32};
  for (int i = 0; i < 3; ++i) {
    song.push_back(pressure(100, pressures[i], i + 1));
    song.push_back(noteOn(200, keys[i], 100, i + 1));
  }
  // Channel 1's note bends up 2 semitones in a ramp (bend range 48: 8191 * 2 / 48),
  // then channel 2's down 1 semitone at once; channel 3's never moves.
  for (int step = 1; step <= 40; ++step) song.push_back(bend(24000 + step * 300, 341 * step / 40, 1));
  song.push_back(bend(48000, -171, 2));
  // Channel 2's pressure falls to 16 later; the others keep theirs.
  song.push_back(pressure(72000, 16, 2));
  return song;
}

}  // namespace

TEST_CASE("MPE: three notes on three member channels follow their own bends and pressures; the others stay put",
          "[engine][mpe]") {
  SfzProgram p(kInstrument, loopedSine());
  REQUIRE(p.warnings.empty());
  auto r = play(p, threeNotes(true), 96000);
  const auto& x = r->left;
  struct Window {
    size_t from, to;
    double cents[3];
    double levels[3];
  };
  // Levels relative to channel 1's note in the first window (pressure 127): the
  // pressure scales each (amplitude_oncc129=100 multiplies by it).
  const double full = peakNear(x, 12000, 22000, expectedHz(60, 0.0)).level;
  REQUIRE(full > 0.05);
  const Window windows[] = {
      {12000, 22000, {0.0, 0.0, 0.0}, {1.0, 64.0 / 127.0, 32.0 / 127.0}},
      {38000, 46000, {200.0, 0.0, 0.0}, {1.0, 64.0 / 127.0, 32.0 / 127.0}},
      {50000, 70000, {200.0, -100.0, 0.0}, {1.0, 64.0 / 127.0, 32.0 / 127.0}},
      {76000, 94000, {200.0, -100.0, 0.0}, {1.0, 16.0 / 127.0, 32.0 / 127.0}},
  };
  const int keys[3] = {60, 72, 84};
  for (const Window& w : windows) {
    for (int n = 0; n < 3; ++n) {
      const double expected = expectedHz(keys[n], w.cents[n]);
      const Peak peak = peakNear(x, w.from, w.to, expected);
      INFO("window " << w.from << ".." << w.to << ", note " << n << ": " << peak.hz << " Hz, expected " << expected);
      CHECK(std::fabs(centsBetween(peak.hz, expected)) < 2.0);
      INFO("level " << peak.level << ", expected " << full * w.levels[n]);
      CHECK(std::fabs(toDb(peak.level / (full * w.levels[n]))) < 0.3);
    }
  }
}

TEST_CASE("MPE off: member channels are parts 2-16 again, and a zone switched off renders as never set",
          "[engine][mpe]") {
  SfzProgram p(kInstrument, loopedSine());
  auto onParts = [&](std::vector<TimedEvent> song) {
    auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
    for (int part = 0; part < 4; ++part) r->setProgram(p.program.get(), part);
    r->run(std::move(song), 60000);
    return r;
  };
  auto never = onParts(threeNotes(false));
  std::vector<TimedEvent> offAgain = mcm(0, 15);
  append(offAgain, mcm(50, 0));
  append(offAgain, threeNotes(false));
  auto switchedOff = onParts(offAgain);
  CHECK(never->left == switchedOff->left);
  CHECK(never->right == switchedOff->right);
  // Channel 2's bend of 341 is its part's own, at bend_up's 200 cents: 8.3 cents.
  const Peak bent = peakNear(never->left, 38000, 46000, expectedHz(60, 341.0 / 8191.0 * 200.0));
  CHECK(std::fabs(centsBetween(bent.hz, expectedHz(60, 341.0 / 8191.0 * 200.0))) < 1.0);
}

TEST_CASE("MPE: the same key on two member channels ends with its own note-off", "[engine][mpe]") {
  SfzProgram p(kInstrument, loopedSine());
  std::vector<TimedEvent> song = mcm(0, 15);
  append(song, {pressure(0, 127, 1), pressure(0, 127, 2), noteOn(100, 60, 100, 1), bend(100, 341, 2),
                noteOn(100, 60, 100, 2), noteOff(20000, 60, 1), noteOff(40000, 60, 2)});
  auto r = play(p, song, 48000);
  const double low = expectedHz(60, 0.0), high = expectedHz(60, 341.0 / 8191.0 * 4800.0);
  CHECK(peakNear(r->left, 4000, 18000, low).level > 0.1);
  CHECK(peakNear(r->left, 4000, 18000, high).level > 0.1);
  // Channel 1's note-off ends the unbent note only; the bent one sounds on.
  CHECK(peakNear(r->left, 24000, 38000, low).level < 0.001);
  CHECK(peakNear(r->left, 24000, 38000, high).level > 0.1);
  CHECK(rms(r->left, 42000, 48000) < 1e-4);
}

TEST_CASE("MPE: the master channel's bend moves the whole zone; RPN 0 on a member sets the zone's note range",
          "[engine][mpe]") {
  SfzProgram p("<region> sample=s.wav pitch_keycenter=60 loop_mode=loop_continuous loop_start=0 loop_end=51199 "
               "bend_up=1200 bend_down=-1200",
               loopedSine());
  std::vector<TimedEvent> song = mcm(0, 15);
  append(song, {noteOn(100, 60, 100, 1), noteOn(100, 72, 100, 2), bend(10000, 4096, 0),
                // RPN 0 = 12 semitones on member channel 3: every member's range from now on.
                cc(20000, 101, 0, 3), cc(20000, 100, 0, 3), cc(20000, 6, 12, 3), bend(20000, 8191, 2)});
  auto r = play(p, song, 30000);
  const double master = 4096.0 / 8191.0 * 1200.0;  // bend_up for the zone's bend
  CHECK(std::fabs(centsBetween(peakNear(r->left, 2000, 9000, expectedHz(60, 0.0)).hz, expectedHz(60, 0.0))) < 1.0);
  CHECK(std::fabs(centsBetween(peakNear(r->left, 12000, 19000, expectedHz(60, master)).hz, expectedHz(60, master))) < 2.0);
  CHECK(std::fabs(centsBetween(peakNear(r->left, 12000, 19000, expectedHz(72, master)).hz, expectedHz(72, master))) < 2.0);
  const double up = master + 1200.0;
  CHECK(std::fabs(centsBetween(peakNear(r->left, 22000, 30000, expectedHz(72, up)).hz, expectedHz(72, up))) < 2.0);
  CHECK(std::fabs(centsBetween(peakNear(r->left, 22000, 30000, expectedHz(60, master)).hz, expectedHz(60, master))) < 2.0);
}

TEST_CASE("MPE: CC74 is each note's own; an upper zone plays part 16's instrument", "[engine][mpe]") {
  SfzProgram p("<region> sample=s.wav pitch_keycenter=60 loop_mode=loop_continuous loop_start=0 loop_end=51199 "
               "amplitude_oncc74=100",
               loopedSine());
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  r->setProgram(p.program.get(), 15);
  std::vector<TimedEvent> song = mcm(0, 7, true);  // members: channels 9..15 (indices 8..14)
  append(song, {cc(0, 74, 127, 14), cc(0, 74, 32, 13), noteOn(100, 60, 100, 14), noteOn(100, 72, 100, 13),
                cc(12000, 74, 127, 13)});
  r->run(song, 24000);
  const double a = peakNear(r->left, 2000, 11000, expectedHz(60, 0.0)).level;
  const double b = peakNear(r->left, 2000, 11000, expectedHz(72, 0.0)).level;
  REQUIRE(a > 0.05);
  CHECK(std::fabs(toDb(b / a) - toDb(32.0 / 127.0)) < 0.3);
  const double b2 = peakNear(r->left, 14000, 23000, expectedHz(72, 0.0)).level;
  CHECK(std::fabs(toDb(b2 / a)) < 0.3);
  CHECK(std::fabs(toDb(peakNear(r->left, 14000, 23000, expectedHz(60, 0.0)).level / a)) < 0.3);
}

TEST_CASE("MPE: a program loaded after the zone is set plays its set_cc defaults on member notes", "[engine][mpe]") {
  SfzProgram p("<region> sample=s.wav pitch_keycenter=60 loop_mode=loop_continuous loop_start=0 loop_end=51199 "
               "amplitude_oncc20=100",
               loopedSine());
  p.program->controllerDefaults.push_back({20, 32.0f / 127.0f});  // set_cc20=32, as the loader keeps it
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  r->run(mcm(0, 15), 256);  // the zone first, no program yet
  r->setProgram(p.program.get(), 0);
  // The member's note alone first (a master-channel message would bring the zone's
  // controllers to every member slot), then a note on the master channel.
  r->run({noteOn(256, 60, 100, 1), noteOn(8000, 72, 100, 0)}, 16000);
  const double member = peakNear(r->left, 1000, 7500, expectedHz(60, 0.0)).level;
  const double master = peakNear(r->left, 9000, 16000, expectedHz(72, 0.0)).level;
  REQUIRE(master > 0.01);
  CHECK(std::fabs(toDb(member / master)) < 0.3);  // both at CC20 = 32 (about -12 dB), not 0 (silent)
}

TEST_CASE("MPE: the stats show each member channel's held key with its own bend, pressure and timbre",
          "[engine][mpe]") {
  SfzProgram p(kInstrument, loopedSine());
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  r->setProgram(p.program.get(), 0);
  std::vector<TimedEvent> song = mcm(0, 15);
  // Channel index 2 (MIDI 3): key 64 bent down a semitone (48-semitone range), pressure
  // 96, CC74 32; channel index 5: key 67 and key 70 held, the lowest shown, no bend.
  append(song, {pressure(10, 96, 2), cc(10, 74, 32, 2), noteOn(20, 64, 100, 2), bend(30, -171, 2),
                noteOn(20, 70, 100, 5), noteOn(20, 67, 100, 5), noteOn(20, 50, 100, 0)});
  r->run(song, 512);
  const engine::EngineStats st = r->engine.stats();
  CHECK(st.mpeLower == 15);
  CHECK(st.mpeNotes[2].key == 64);
  CHECK(st.mpeNotes[2].bendCents == Approx(-171.0 / 8192.0 * 4800.0).margin(0.01));
  CHECK(st.mpeNotes[2].pressure == Approx(96.0 / 127.0).margin(1e-4));
  CHECK(st.mpeNotes[2].timbre == Approx(32.0 / 127.0).margin(1e-4));
  CHECK(st.mpeNotes[5].key == 67);
  CHECK(st.mpeNotes[5].bendCents == 0.0f);
  CHECK(st.mpeNotes[0].key == -1);  // the master channel's note is the zone's, not a member's
  CHECK(st.mpeNotes[1].key == -1);
  r->run({noteOff(600, 64, 2), noteOff(600, 67, 5)}, 512);
  const engine::EngineStats after = r->engine.stats();
  CHECK(after.mpeNotes[2].key == -1);
  CHECK(after.mpeNotes[5].key == 70);
  CHECK(after.parts[0].held(50));
  CHECK(after.parts[0].held(70));
  CHECK_FALSE(after.parts[0].held(64));
}

TEST_CASE("MPE zones: a zone switched off leaves the other whole; zones that meet shrink the earlier", "[engine][mpe]") {
  engine::MpeLayout zones;
  zones.configure(false, 15);
  zones.configure(true, 0);
  CHECK(zones.members(false) == 15);
  CHECK(zones.masterOf(15) == 0);  // channel 16 is the lower zone's last member
  zones.configure(true, 7);        // members 9..15 (1-based): the lower zone keeps 2..8
  CHECK(zones.members(true) == 7);
  CHECK(zones.members(false) == 7);
  CHECK(zones.masterOf(7) == 0);
  CHECK(zones.masterOf(8) == 15);
  zones.configure(false, 0);
  CHECK(zones.members(true) == 7);
  CHECK(zones.masterOf(1) == -1);
}

TEST_CASE("MPE: note_polyphony counts each member note apart; lobend/hibend read the note's own bend",
          "[engine][mpe]") {
  SfzProgram p("<region> sample=s.wav key=60 pitch_keycenter=60 loop_mode=loop_continuous loop_start=0 "
               "loop_end=51199 note_polyphony=1\n"
               "<region> sample=s.wav key=72 pitch_keycenter=72 loop_mode=loop_continuous loop_start=0 "
               "loop_end=51199 lobend=4000",
               loopedSine());
  REQUIRE(p.warnings.empty());
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  r->setProgram(p.program.get(), 0);
  std::vector<TimedEvent> song = mcm(0, 15);
  // Key 60 on member channels 1 and 2: two notes, one voice each (note_polyphony=1 per note).
  append(song, {noteOn(100, 60, 100, 1), noteOn(200, 60, 100, 2)});
  r->run(song, 512);
  CHECK(r->engine.stats().activeVoices == 2);
  // Key 60 again on channel 1: that note's own voice gives way (the old one fades).
  r->run({noteOff(600, 60, 1), noteOn(700, 60, 100, 1)}, 4096);
  CHECK(r->engine.stats().activeVoices == 2);
  CHECK(r->engine.stats().voicesStolen == 0);
  // Key 72 (lobend=4000): the master channel's bend up does not start it on a member
  // channel whose own bend is centred; a member bent up past 4000 does.
  const uint64_t before = r->engine.stats().notesStarted;
  r->run({bend(4700, 8191, 0), noteOn(4750, 72, 100, 3), bend(4800, 6000, 4), noteOn(4850, 72, 100, 4)}, 512);
  CHECK(r->engine.stats().notesStarted - before == 1);
  CHECK(r->engine.stats().mpeNotes[4].key == 72);
}

}  // namespace mpe_tests
