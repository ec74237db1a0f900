// What the generated samples sound like, measured: pitch, brightness per velocity layer,
// round-robin variation. Tolerances are stated next to each check.
#include "Analysis.h"
#include "InstrumentFiles.h"
#include "catch.h"

namespace instrument_sound_tests {

namespace {

using namespace spindle::instrument;
using spindle::test::loadAudio;
using spindle::test::samplePath;

// Pitch is measured after the attack, once the inharmonic bending modes have died away.
constexpr std::size_t kPitchStart = kSampleRate / 2;
// Brightness is measured over the attack and early bloom, where the layers differ most.
constexpr std::size_t kBrightnessFrames = kSampleRate * 3 / 10;

double measuredCents(const std::vector<float>& frames, int key) {
  const double expected = kSampleRate / keyFrequency(key);
  const double period = spindle::test::measurePeriod(frames, kPitchStart, expected);
  return period > 0.0 ? spindle::test::centsBetween(kSampleRate / period, keyFrequency(key)) : 1e9;
}

}  // namespace

TEST_CASE("every sustain sample's fundamental matches its pitch_keycenter within 5 cents", "[resources]") {
  for (int index = 0; index < kKeyCount; ++index) {
    const int key = sampledKey(index);
    for (int layer = 0; layer < static_cast<int>(kLayers.size()); ++layer) {
      for (int rr = 0; rr < kRoundRobins; ++rr) {
        const auto audio = loadAudio(samplePath(sustainFileName(key, layer, rr)));
        const double cents = measuredCents(audio.frames, key);
        INFO(sustainFileName(key, layer, rr) << ": " << cents << " cents");
        CHECK(std::abs(cents) < 5.0);
      }
    }
  }
}

TEST_CASE("velocity layers get brighter, not only louder", "[resources]") {
  for (int index = 0; index < kKeyCount; ++index) {
    const int key = sampledKey(index);
    for (int rr = 0; rr < kRoundRobins; ++rr) {
      double previous = 0.0;
      for (int layer = 0; layer < static_cast<int>(kLayers.size()); ++layer) {
        const auto audio = loadAudio(samplePath(sustainFileName(key, layer, rr)));
        const double b = spindle::test::overtoneBrightness(audio.frames, 0, kBrightnessFrames, keyFrequency(key), kSampleRate);
        INFO(sustainFileName(key, layer, rr) << ": brightness " << b << ", layer below " << previous);
        CHECK(b > previous * 1.2);  // at least 20 % brighter than the layer below
        previous = b;
      }
    }
  }
}

TEST_CASE("round robins differ in sound but not in pitch", "[resources]") {
  for (int index = 0; index < kKeyCount; ++index) {
    const int key = sampledKey(index);
    for (int layer = 0; layer < static_cast<int>(kLayers.size()); ++layer) {
      const auto first = loadAudio(samplePath(sustainFileName(key, layer, 0))).frames;
      const auto second = loadAudio(samplePath(sustainFileName(key, layer, 1))).frames;
      REQUIRE(first.size() == second.size());
      std::vector<float> difference(first.size());
      for (std::size_t i = 0; i < first.size(); ++i) difference[i] = first[i] - second[i];
      const double relative = spindle::test::rms(difference, 0, kBrightnessFrames) /
                              spindle::test::rms(first, 0, kBrightnessFrames);
      const double centsApart = measuredCents(first, key) - measuredCents(second, key);
      INFO(sustainFileName(key, layer, 0) << ": difference " << relative << ", " << centsApart << " cents apart");
      CHECK(relative > 0.02);              // audibly different strikes (> -34 dB apart)
      CHECK(std::abs(centsApart) < 1.0);  // yet the same note
    }
  }
}

TEST_CASE("release samples are short, quiet key-off sounds", "[resources]") {
  for (int index = 0; index < kKeyCount; ++index) {
    const auto audio = loadAudio(samplePath(releaseFileName(sampledKey(index))));
    INFO(releaseFileName(sampledKey(index)));
    REQUIRE(audio.frames.size() == static_cast<std::size_t>(releaseFrames()));
    const std::size_t tenth = audio.frames.size() / 10;
    // Most of the energy is in the first tenth: a thump, not a sustained tone.
    CHECK(spindle::test::rms(audio.frames, 0, tenth) > 4.0 * spindle::test::rms(audio.frames, tenth, 9 * tenth));
  }
}

}  // namespace instrument_sound_tests
