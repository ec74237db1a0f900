// SoundFonts the tests write, played through the Loader and the Engine and measured:
// pitch across keys, exclusive classes, preset selection by bank and program (channel
// 10 on bank 128), and the RPN 0 bend range, which SFZ regions do not follow.
#include <fstream>

#include "Sf2PlaybackSupport.h"

namespace sound_font_playback_tests {

namespace sf2 = spindle::sf2;
using spindle::test::amount;
using spindle::test::bend;
using spindle::test::cc;
using spindle::test::centsBetween;
using spindle::test::FontPlayer;
using spindle::test::hzOver;
using spindle::test::loopedSine;
using spindle::test::noteOn;
using spindle::test::programChange;
using spindle::test::rmsDb;
using spindle::test::Sf2Spec;

namespace {

// 441 Hz at 22050 Hz: 50 frames a period, 441 whole periods looped.
Sf2Spec sineFont(std::vector<spindle::test::Sf2Gen> gens = {}) {
  Sf2Spec s;
  s.samples.push_back(loopedSine("sine", 441.0, 22050, 69, 22050, 0.5));
  gens.push_back({sf2::kSampleModes, 1});
  gens.push_back({sf2::kSampleID, 0});
  s.instruments.push_back({"I", {{gens, {}}}});
  s.presets.push_back({"P", 0, 0, {{{{sf2::kInstrument, 0}}, {}}}});
  return s;
}

// Zones on keys lo..hi with a pan and an exclusive class, over sineFont's sample.
spindle::test::Sf2Zone classZone(int lo, int hi, int pan, int exclusiveClass) {
  return {{{sf2::kKeyRange, spindle::test::range(static_cast<uint8_t>(lo), static_cast<uint8_t>(hi))},
           {sf2::kPan, amount(pan)}, {sf2::kExclusiveClass, static_cast<uint16_t>(exclusiveClass)},
           {sf2::kSampleModes, 1}, {sf2::kSampleID, 0}},
          {}};
}

}  // namespace

TEST_CASE("a 441 Hz sample at root 69, stored at 22050 Hz, plays 882 Hz at key 81", "[sf2][playback]") {
  const FontPlayer font(sineFont(), "sf2-play-pitch");
  const auto r = font.play({noteOn(0, 81, 127)}, 48000);
  CHECK(std::abs(centsBetween(hzOver(r->left, 0.2, 0.9), 882.0)) < 1.0);
  const auto root = font.play({noteOn(0, 69, 127)}, 48000);
  CHECK(std::abs(centsBetween(hzOver(root->left, 0.2, 0.9), 441.0)) < 1.0);
}

TEST_CASE("coarse tune, fine tune and scaleTuning move the played pitch", "[sf2][playback]") {
  // Key 81 with scaleTuning 50: 6 semitones over the root; coarse +2, fine -50: +7.5 in all.
  const FontPlayer font(sineFont({{sf2::kScaleTuning, 50}, {sf2::kCoarseTune, 2}, {sf2::kFineTune, amount(-50)}}),
                        "sf2-play-tune");
  const auto r = font.play({noteOn(0, 81, 127)}, 48000);
  CHECK(std::abs(centsBetween(hzOver(r->left, 0.2, 0.9), 441.0 * std::exp2(750.0 / 1200.0))) < 1.0);
}

TEST_CASE("a second note of the same exclusive class silences the first on its channel", "[sf2][playback]") {
  Sf2Spec s = sineFont();
  s.instruments[0].zones = {classZone(60, 60, -500, 1), classZone(62, 62, 500, 1)};  // left, right
  const FontPlayer font(s, "sf2-play-exclusive");
  const auto r = font.play({noteOn(0, 60, 127), noteOn(24000, 62, 127)}, 36000);
  const double first = rmsDb(r->left, 0.3, 0.5);
  REQUIRE(first > -20.0);
  REQUIRE(rmsDb(r->right, 0.3, 0.5) < first - 60.0);  // hard left: the key-60 region alone
  CHECK(rmsDb(r->left, 0.55, 0.75) < first - 60.0);    // 50 ms after key 62: gone
  CHECK(rmsDb(r->right, 0.55, 0.75) > first - 3.0);     // and key 62 sounds
  // Another channel's note of the same class leaves it alone.
  const auto other = font.play({noteOn(0, 60, 127), noteOn(24000, 62, 127, 1)}, 36000, {0, 1});
  CHECK(rmsDb(other->left, 0.55, 0.75) == Approx(first).margin(0.5));
}

TEST_CASE("two zones of one exclusive class started by the same note-on both sound", "[sf2][playback]") {
  Sf2Spec s = sineFont();
  s.instruments[0].zones = {classZone(64, 64, -500, 2), classZone(64, 64, 500, 2)};
  const FontPlayer font(s, "sf2-play-exclusive-pair");
  const auto r = font.play({noteOn(0, 64, 127)}, 24000);
  const double left = rmsDb(r->left, 0.1, 0.5), right = rmsDb(r->right, 0.1, 0.5);
  CHECK(left > -20.0);
  CHECK(right == Approx(left).margin(0.1));
}

namespace {

// Bank 0 programs 0 and 5, bank 128 program 0: 441, 882 and 220.5 Hz at key 69.
Sf2Spec threePresets() {
  Sf2Spec s;
  s.samples = {loopedSine("p0", 441.0, 22050, 69, 22050, 0.5), loopedSine("p5", 882.0, 22050, 69, 22050, 0.5),
               loopedSine("drum", 220.5, 22050, 69, 22050, 0.5)};
  for (uint16_t i = 0; i < 3; ++i)
    s.instruments.push_back({s.samples[i].name, {{{{sf2::kSampleModes, 1}, {sf2::kSampleID, i}}, {}}}});
  s.presets = {{"Zero", 0, 0, {{{{sf2::kInstrument, 0}}, {}}}},
               {"Five", 5, 0, {{{{sf2::kInstrument, 1}}, {}}}},
               {"Kit", 0, 128, {{{{sf2::kInstrument, 2}}, {}}}}};
  return s;
}

// The pitch `events` then key 69 on `channel` play.
double presetHz(const FontPlayer& font, std::vector<spindle::test::TimedEvent> events, int channel) {
  events.push_back(noteOn(256, 69, 127, channel));
  const auto r = font.play(events, 24000, {0, 9});
  return hzOver(r->left, 0.1, 0.5);
}

}  // namespace

TEST_CASE("bank select and program change choose the preset; channel 10 plays bank 128", "[sf2][playback]") {
  const FontPlayer font(threePresets(), "sf2-play-presets");
  const auto near = [](double hz) { return Approx(hz).epsilon(0.005); };
  CHECK(presetHz(font, {}, 0) == near(441.0));                        // bank 0 program 0
  CHECK(presetHz(font, {programChange(0, 5)}, 0) == near(882.0));     // program 5
  CHECK(presetHz(font, {programChange(0, 7)}, 0) == near(441.0));     // missing: program 0 of bank 0
  CHECK(presetHz(font, {}, 9) == near(220.5));                        // channel 10: bank 128
  CHECK(presetHz(font, {programChange(0, 5, 9)}, 9) == near(220.5));  // missing in 128: its program 0
  CHECK(presetHz(font, {cc(0, 0, 1), programChange(0, 5)}, 0) == near(882.0));  // bank 1 lacks 5: bank 0's
  CHECK(presetHz(font, {cc(0, 0, 1), programChange(0, 7)}, 0) == near(441.0));  // neither: bank 0 program 0
}

TEST_CASE("RPN 0 sets the bend range of SoundFont regions; SFZ regions keep bend_up", "[sf2][playback]") {
  const std::vector<spindle::test::TimedEvent> rpn12 = {cc(0, 101, 0), cc(0, 100, 0), cc(0, 6, 12), bend(0, 8191),
                                                         noteOn(0, 69, 127)};
  const FontPlayer font(sineFont(), "sf2-play-rpn");
  const auto wide = font.play(rpn12, 48000);
  CHECK(std::abs(centsBetween(hzOver(wide->left, 0.2, 0.9), 882.0)) < 2.0);
  const auto fine = font.play({cc(0, 101, 0), cc(0, 100, 0), cc(0, 6, 1), cc(0, 38, 50), bend(0, 8191), noteOn(0, 69, 127)},
                              48000);
  CHECK(std::abs(centsBetween(hzOver(fine->left, 0.2, 0.9), 441.0 * std::exp2(150.0 / 1200.0))) < 2.0);
  const auto plain = font.play({bend(0, 8191), noteOn(0, 69, 127)}, 48000);  // 2 semitones until set
  CHECK(std::abs(centsBetween(hzOver(plain->left, 0.2, 0.9), 441.0 * std::exp2(200.0 / 1200.0))) < 2.0);

  const auto dir = spindle::test::scratchDir("sf2-play-rpn-sfz");
  spindle::test::writeWav16(dir / "sine.wav", 1, spindle::test::sine16(441.0, 22050.0, 22050, 0.5), 22050);
  std::ofstream(dir / "x.sfz") << "<region> sample=sine.wav pitch_keycenter=69 bend_up=300 "
                                  "loop_mode=loop_continuous loop_start=0 loop_end=22049\n";
  const FontPlayer sfz(dir / "x.sfz");
  const auto own = sfz.play(rpn12, 48000);
  CHECK(std::abs(centsBetween(hzOver(own->left, 0.2, 0.9), 441.0 * std::exp2(300.0 / 1200.0))) < 2.0);
}

TEST_CASE("MPE: a member channel's bend moves its own SoundFont note through the pitch-wheel modulator",
          "[sf2][playback][mpe]") {
  using spindle::test::at;
  using spindle::test::kOutputRate;
  using spindle::test::tonePeak;
  const FontPlayer font(sineFont(), "sf2-play-mpe");
  // A lower zone of 15 (RPN 6 on channel 1); key 69 on member channel 2, key 57 on 3;
  // channel 2 bends +12 semitones (2048 of 8192 at the members' 48) after half a second.
  const auto r = font.play({cc(0, 101, 0), cc(0, 100, 6), cc(0, 6, 15), noteOn(0, 69, 127, 1), noteOn(0, 57, 127, 2),
                            bend(24000, 2048, 1)},
                           96000);
  const double bentCents = 2048.0 / 8191.0 * 4800.0;
  auto off = [&](double from, double to, double hz) {
    return centsBetween(tonePeak(r->left, at(from), at(to), hz, kOutputRate).hz, hz);
  };
  CHECK(std::abs(off(0.1, 0.45, 441.0)) < 2.0);
  CHECK(std::abs(off(0.1, 0.45, 220.5)) < 2.0);
  CHECK(std::abs(off(0.6, 1.9, 441.0 * std::exp2(bentCents / 1200.0))) < 2.0);
  CHECK(std::abs(off(0.6, 1.9, 220.5)) < 2.0);  // channel 3's note stays put
}

}  // namespace sound_font_playback_tests
