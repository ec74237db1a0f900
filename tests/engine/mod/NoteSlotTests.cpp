// Note slots (parts/Expression.h, EngineNoteSlots.cpp): a note claims one and from then
// on its voices read their bend, controllers, gain and pan there; the part's controllers
// reach it but for what it owns. Frequencies and levels read from the mix as MpeTests do.
#include <cmath>

#include "ModTestSupport.h"
#include "engine/parts/Expression.h"

namespace note_slot_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr double kBaseHz = 375.0;  // 128 frames a period, looped whole

TimedEvent slot(int64_t frame, int key, midi::NoteSlotAction action, float value, int slotIndex = 0) {
  return {frame, midi::noteSlotEvent(0, 0, slotIndex, key, action, value)};
}

TonePeak peakNear(const std::vector<float>& x, size_t from, size_t to, int key, double cents) {
  return tonePeak(x, from, to, kBaseHz * std::pow(2.0, (key - 60) / 12.0 + cents / 1200.0), kRate);
}

}  // namespace

TEST_CASE("Note slots: a claimed note's bend and CC1 are its own, the part's CC1 reaches the others",
          "[engine][note-slot]") {
  SfzProgram p("<region> sample=s.wav pitch_keycenter=60 loop_mode=loop_continuous loop_start=0 loop_end=51199 "
               "amplitude_oncc1=100 ampeg_release=0.01",
               sine(kBaseHz, kRate, 128 * 400, 0.5f));
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  r->setProgram(p.program.get(), 0);
  // Both notes on part 0; key 60 claims slot 0 late and bends 2 semitones (341 steps of
  // the 48-semitone range), then owns its CC1 at 0.5; the part's CC1 falls to 32 later.
  r->run({cc(0, 1, 127), noteOn(100, 60), noteOn(100, 72), slot(12000, 60, midi::kSlotClaim, 0.0f),
          slot(12000, 60, midi::kSlotTuning, 2.0f), slot(24000, 60, midi::kSlotVibrato, 0.5f), cc(36000, 1, 32)},
         48000);
  const double bent = 341.0 / 8191.0 * 4800.0;
  const TonePeak a0 = peakNear(r->left, 2000, 11000, 60, 0.0), b0 = peakNear(r->left, 2000, 11000, 72, 0.0);
  REQUIRE(a0.level > 0.05);
  CHECK(std::fabs(b0.level / a0.level - 1.0) < 0.02);
  CHECK(std::fabs(1200.0 * std::log2(peakNear(r->left, 14000, 23000, 60, bent).hz / (kBaseHz * std::pow(2.0, bent / 1200.0)))) < 2.0);
  CHECK(std::fabs(1200.0 * std::log2(peakNear(r->left, 14000, 23000, 72, 0.0).hz / (2.0 * kBaseHz))) < 2.0);
  CHECK(std::fabs(peakNear(r->left, 26000, 35000, 60, bent).level / a0.level - 0.5) < 0.02);
  CHECK(std::fabs(peakNear(r->left, 26000, 35000, 72, 0.0).level / b0.level - 1.0) < 0.02);
  CHECK(std::fabs(peakNear(r->left, 38000, 47000, 60, bent).level / a0.level - 0.5) < 0.02);  // owns its CC1
  CHECK(std::fabs(peakNear(r->left, 38000, 47000, 72, 0.0).level / b0.level - 32.0 / 127.0) < 0.02);
  CHECK(r->engine.noteSounding(0, 60, 0));
  CHECK_FALSE(r->engine.noteSounding(0, 60, -1));  // its voices left the part's
  CHECK(r->engine.noteSounding(0, 72, -1));
  CHECK_FALSE(r->engine.noteSounding(0, 72, 0));
  // Its note-off goes to its slot; a note-off of the part's own key 60 does not end it.
  r->run({noteOff(48000, 60), noteOff(48000, 72)}, 2400);
  CHECK(r->engine.noteSounding(0, 60, 0));
  CHECK_FALSE(r->engine.noteSounding(0, 72, -1));
  r->run({slot(50400, 60, midi::kSlotNoteOff, 0.0f)}, 2400);
  CHECK_FALSE(r->engine.noteSounding(0, 60, 0));
}

TEST_CASE("Note slots: a note started in its slot has its values from its first frame; gain and pan its own",
          "[engine][note-slot]") {
  SfzProgram p("<region> sample=s.wav pitch_keycenter=60 loop_mode=loop_continuous loop_start=0 loop_end=51199 "
               "amplitude_oncc74=100 ampeg_attack=0 ampeg_release=0.01",
               sine(kBaseHz, kRate, 128 * 400, 0.5f));
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  r->setProgram(p.program.get(), 0);
  r->run({cc(0, 74, 127), slot(100, 60, midi::kSlotReserve, 0.0f), slot(100, 60, midi::kSlotBrightness, 0.25f),
          slot(100, 60, midi::kSlotNoteOn, 100.0f), noteOn(100, 72), slot(12000, 60, midi::kSlotVolume, 2.0f),
          slot(24000, 60, midi::kSlotPan, 0.0f)},
         36000);
  const double a = peakNear(r->left, 1000, 11000, 60, 0.0).level, b = peakNear(r->left, 1000, 11000, 72, 0.0).level;
  REQUIRE(b > 0.05);
  CHECK(std::fabs(a / b - 0.25) < 0.01);
  // From its first frames (a 1024-frame window from the note-on): its CC74, not the part's.
  CHECK(std::fabs(peakNear(r->left, 100, 1124, 60, 0.0).level / peakNear(r->left, 100, 1124, 72, 0.0).level - 0.25) <
        0.02);
  CHECK(std::fabs(peakNear(r->left, 13000, 23000, 60, 0.0).level / b - 0.5) < 0.01);  // twice its gain
  // Panned hard left: nothing of it on the right, the other note as it was there.
  CHECK(peakNear(r->right, 25000, 35000, 60, 0.0).level < 0.001);
  CHECK(std::fabs(peakNear(r->right, 25000, 35000, 72, 0.0).level / peakNear(r->right, 1000, 11000, 72, 0.0).level - 1.0) < 0.01);
}

TEST_CASE("Note slots: a CC offset is the note's own on top of the part's value as it moves; a new claim drops it",
          "[engine][note-slot]") {
  SfzProgram p("<region> sample=s.wav pitch_keycenter=60 loop_mode=loop_continuous loop_start=0 loop_end=51199 "
               "amplitude_oncc20=100 amplitude_oncc74=100 ampeg_attack=0 ampeg_release=0.01",
               sine(kBaseHz, kRate, 128 * 400, 0.5f));
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  r->setProgram(p.program.get(), 0);
  // Key 60 starts in slot 0 with CC20 +32 over the part's 64 (the slot event's key is
  // the CC); key 72 plays as the part's. The part's CC20 falls to 32 at 12000; at 24000
  // key 60's own CC74 (0.5) gets +32 too.
  r->run({cc(0, 20, 64), cc(0, 74, 127), slot(100, 20, midi::kSlotReserve, 0.0f),
          slot(100, 20, midi::kSlotCcOffset, 32.0f), slot(100, 60, midi::kSlotNoteOn, 100.0f), noteOn(100, 72),
          cc(12000, 20, 32), slot(24000, 60, midi::kSlotBrightness, 0.5f), slot(24000, 74, midi::kSlotCcOffset, 32.0f)},
         36000);
  const double a = peakNear(r->left, 1000, 11000, 60, 0.0).level, b = peakNear(r->left, 1000, 11000, 72, 0.0).level;
  REQUIRE(b > 0.05);
  CHECK(std::fabs(a / b - 96.0 / 64.0) < 0.01);
  CHECK(std::fabs(peakNear(r->left, 13000, 23000, 72, 0.0).level / b - 32.0 / 64.0) < 0.01);
  CHECK(std::fabs(peakNear(r->left, 13000, 23000, 60, 0.0).level / b - 64.0 / 64.0) < 0.01);
  const double own74 = (0.5 * 127.0 + 32.0) / 127.0;  // the note's own CC74 plus its offset
  CHECK(std::fabs(peakNear(r->left, 25000, 35000, 60, 0.0).level / b - own74) < 0.01);
  // Both end; a new note claims slot 0 on key 60: no offset of the note before.
  r->run({noteOff(36000, 72), slot(36000, 60, midi::kSlotNoteOff, 0.0f)}, 4800);
  REQUIRE_FALSE(r->engine.noteSounding(0, 60, 0));
  r->run({slot(40900, 60, midi::kSlotReserve, 0.0f), slot(40900, 60, midi::kSlotNoteOn, 100.0f), noteOn(40900, 72)},
         12000);
  const double b2 = peakNear(r->left, 42000, 52000, 72, 0.0).level;
  REQUIRE(b2 > 0.02);
  CHECK(std::fabs(peakNear(r->left, 42000, 52000, 60, 0.0).level / b2 - 1.0) < 0.01);
}

}  // namespace note_slot_tests
