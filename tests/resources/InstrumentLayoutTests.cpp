// The generated .sfz against the files next to it and the layout in Spec.h.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "InstrumentFiles.h"
#include "catch.h"

namespace instrument_layout_tests {

namespace {

using namespace spindle::instrument;
using spindle::test::intOpcode;

std::set<std::string> filesInSampleDir() {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(spindle::test::instrumentDir() / kSampleDir)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

}  // namespace

TEST_CASE("the sfz lists exactly the sample files that exist", "[resources]") {
  const auto sfz = spindle::test::readSfz(spindle::test::instrumentDir() / kSfzFileName);
  CHECK(sfz.defaultPath == std::string(kSampleDir) + "/");
  REQUIRE(sfz.regions.size() == static_cast<std::size_t>(kKeyCount * (kLayers.size() * kRoundRobins + 1)));
  std::set<std::string> listed;
  for (const auto& region : sfz.regions) {
    const std::string& sample = region.at("sample");
    INFO(sample);
    CHECK(std::filesystem::is_regular_file(spindle::test::instrumentDir() / sfz.defaultPath / sample));
    listed.insert(sample);
  }
  CHECK(listed == filesInSampleDir());
}

TEST_CASE("every sample has the expected format, rate, channels and length", "[resources]") {
  const auto sfz = spindle::test::readSfz(spindle::test::instrumentDir() / kSfzFileName);
  for (const auto& region : sfz.regions) {
    const bool release = region.count("trigger") && region.at("trigger") == "release";
    const int key = intOpcode(region, "pitch_keycenter", -1);
    const auto audio = spindle::test::loadAudio(spindle::test::samplePath(region.at("sample")));
    INFO(region.at("sample"));
    CHECK(audio.info.format == (SF_FORMAT_FLAC | SF_FORMAT_PCM_24));
    CHECK(audio.info.samplerate == kSampleRate);
    CHECK(audio.info.channels == kChannels);
    CHECK(audio.info.frames == (release ? releaseFrames() : sustainFrames(key)));
    REQUIRE(!audio.frames.empty());
    const float peak = *std::max_element(audio.frames.begin(), audio.frames.end(),
                                         [](float a, float b) { return std::abs(a) < std::abs(b); });
    CHECK(std::abs(peak) > 0.1f);
    CHECK(std::abs(peak) < 0.95f);                 // headroom, never clipped
    CHECK(std::abs(audio.frames.back()) < 1e-5f);  // faded out: no click at the end
  }
}

TEST_CASE("each velocity layer and the releases cover every key exactly once", "[resources]") {
  const auto sfz = spindle::test::readSfz(spindle::test::instrumentDir() / kSfzFileName);
  // coverage[key][velocity-layer or release][round robin] counts regions that answer.
  std::map<std::tuple<int, int, int>, int> coverage;
  std::set<std::pair<int, int>> velocityRanges;
  for (const auto& region : sfz.regions) {
    const bool release = region.count("trigger") && region.at("trigger") == "release";
    const int lo = intOpcode(region, "lokey", -1), hi = intOpcode(region, "hikey", -1);
    const int center = intOpcode(region, "pitch_keycenter", -1);
    CHECK(lo <= center);
    CHECK(center <= hi);
    const int layer = release ? -1 : intOpcode(region, "lovel", 1);
    for (int key = lo; key <= hi; ++key) ++coverage[{key, layer, intOpcode(region, "seq_position", 1)}];
    if (release) continue;
    CHECK(intOpcode(region, "seq_length", 1) == kRoundRobins);
    velocityRanges.insert({intOpcode(region, "lovel", 1), intOpcode(region, "hivel", 127)});
  }
  REQUIRE(velocityRanges.size() == kLayers.size());
  int nextVelocity = 1;  // the layers tile 1..127 without gaps or overlaps
  for (const auto& [lo, hi] : velocityRanges) {
    CHECK(lo == nextVelocity);
    nextVelocity = hi + 1;
  }
  CHECK(nextVelocity == 128);
  for (int key = kLowestPlayableKey; key <= kHighestPlayableKey; ++key) {
    INFO("key " << key);
    CHECK(coverage[{key, -1, 1}] == 1);
    for (const auto& layer : kLayers) {
      for (int rr = 1; rr <= kRoundRobins; ++rr) CHECK(coverage[{key, layer.loVel, rr}] == 1);
    }
  }
  CHECK(coverage.size() == static_cast<std::size_t>((kHighestPlayableKey - kLowestPlayableKey + 1) *
                                                    (kLayers.size() * kRoundRobins + 1)));
}

}  // namespace instrument_layout_tests
