// Levels: volume beyond the reference's +6 dB and the ARIA header levels,
// rendered by spindle-render and measured (steady part of a held *sine note).
#include <fstream>

#include "RenderSupport.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace level_render_tests {

using spindle::test::levelDb;
using spindle::test::renderSong;
using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr size_t kRate = 48000;

// Level of key 60 held for 1 s, measured over 0.2..0.8 s.
double heldLevel(const std::filesystem::path& dir, const std::string& name, const std::string& sfzText) {
  const auto sfz = dir / (name + ".sfz");
  std::ofstream(sfz) << sfzText;
  const auto r = renderSong(kExe, sfz, {{0, {0x90, 60, 127}}, {960, {0x80, 60, 0}}}, dir, name);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return levelDb(r, kRate / 5, kRate * 8 / 10);
}

}  // namespace

TEST_CASE("volume=14 plays 14 dB above volume=0 (kept beyond the reference's +6)", "[app][levels]") {
  const auto dir = scratchDir("levels-volume");
  const double plain = heldLevel(dir, "plain", "<region> sample=*sine amp_veltrack=0 volume=-20\n");
  const double loud = heldLevel(dir, "loud", "<region> sample=*sine amp_veltrack=0 volume=-6\n");
  const double louder = heldLevel(dir, "louder", "<region> sample=*sine amp_veltrack=0 volume=-20 volume=14\n");
  INFO("plain " << plain << " dB, volume=-6 " << loud << " dB, volume=14 " << louder << " dB");
  CHECK(plain > -60.0);
  CHECK(loud - plain == Approx(14.0).margin(0.1));
  CHECK(louder - plain == Approx(34.0).margin(0.1));
}

TEST_CASE("global/master/group volume and amplitude add to the region's level", "[app][levels]") {
  const auto dir = scratchDir("levels-headers");
  const double plain = heldLevel(dir, "plain", "<region> sample=*sine amp_veltrack=0 volume=-20\n");
  const double headers = heldLevel(dir, "headers",
                                   "<global> global_volume=-6 <master> master_volume=3\n"
                                   "<group> group_volume=-2 group_amplitude=50\n"
                                   "<region> sample=*sine amp_veltrack=0 volume=-20\n");
  INFO("plain " << plain << " dB, with header levels " << headers << " dB");
  CHECK(headers - plain == Approx(-6.0 + 3.0 - 2.0 + 20.0 * std::log10(0.5)).margin(0.1));
}

}  // namespace level_render_tests
