// Channel 10 asks for the percussion bank (128). A font without a preset there plays its
// first preset on channel 10 (a drum kit stored as bank 0 program 0 sounds, where
// FluidSynth is silent), and the load says so once.
#include "Sf2PlaybackSupport.h"

namespace sound_font_percussion_tests {

namespace sf2 = spindle::sf2;
using spindle::test::FontPlayer;
using spindle::test::hzOver;
using spindle::test::loopedSine;
using spindle::test::noteOn;
using spindle::test::programChange;
using spindle::test::rmsDb;
using spindle::test::Sf2Spec;

namespace {

// A kit: key 36 a 220.5 Hz "kick", key 38 a 882 Hz "snare", as one preset `bank`:`program`.
Sf2Spec kitFont(uint16_t bank, uint16_t program) {
  Sf2Spec s;
  s.samples = {loopedSine("kick", 220.5, 22050, 36, 22050, 0.5), loopedSine("snare", 882.0, 22050, 38, 22050, 0.5)};
  s.instruments.push_back({"Kit", {{{{sf2::kKeyRange, spindle::test::range(36, 36)}, {sf2::kSampleModes, 1},
                                      {sf2::kSampleID, 0}}, {}},
                                    {{{sf2::kKeyRange, spindle::test::range(38, 38)}, {sf2::kSampleModes, 1},
                                      {sf2::kSampleID, 1}}, {}}}});
  s.presets.push_back({"Standard Kit", program, bank, {{{{sf2::kInstrument, 0}}, {}}}});
  return s;
}

std::vector<std::string> loadWarnings(const Sf2Spec& spec, const std::string& name) {
  spindle::session::Loader loader;
  auto result = loader.load(spindle::test::saveFont(spec, name));
  REQUIRE(result.program);
  return result.report.sampleWarnings;
}

}  // namespace

TEST_CASE("a kit that is bank 0 program 0 plays on channel 10, and the load says so once", "[sf2][playback]") {
  const Sf2Spec kit = kitFont(0, 0);
  CHECK(loadWarnings(kit, "sf2-kit-bank0") ==
        std::vector<std::string>{"no percussion preset (bank 128): MIDI channel 10 plays 'Standard Kit' (bank 0, "
                                 "program 0), the file's first preset"});
  const FontPlayer font(kit, "sf2-kit-bank0");
  const double hz[] = {220.5, 882.0};
  for (int key : {36, 38}) {
    // A program change on channel 10 finds no bank-128 preset either: the same kit.
    const auto drums = font.play({programChange(0, 40, 9), noteOn(0, key, 100, 9)}, 24000, {0, 9});
    const auto melodic = font.play({noteOn(0, key, 100, 0)}, 24000, {0, 9});
    CHECK(hzOver(drums->left, 0.1, 0.45) == Approx(hz[key == 38]).epsilon(0.005));
    CHECK(rmsDb(drums->left, 0.1, 0.45) > -20.0);
    CHECK(drums->left == melodic->left);  // channel 10 plays what channel 1 plays, frame for frame
  }
}

TEST_CASE("a font with its kit on bank 128 has nothing to report; one with part of it says how much",
          "[sf2][playback]") {
  CHECK(loadWarnings(kitFont(128, 0), "sf2-kit-bank128").empty());
  Sf2Spec partial = kitFont(0, 0);
  partial.presets.push_back({"Brushes", 40, 128, {{{{sf2::kInstrument, 0}}, {}}}});
  CHECK(loadWarnings(partial, "sf2-kit-partial") ==
        std::vector<std::string>{"no percussion preset (bank 128) for 127 of its 128 programs: MIDI channel 10 "
                                 "plays 'Standard Kit' (bank 0, program 0), the file's first preset, for those"});
}

}  // namespace sound_font_percussion_tests
