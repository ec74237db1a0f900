// Generator samples (*sine, *triangle...) play the pitch of their region's
// pitch_keycenter at that key, as sfizz_render does (measured: *sine with
// pitch_keycenter=69 sounds 440 Hz on key 69 and 523 Hz on key 72 there). They used to
// play middle C at the keycenter whatever it was (261.6 Hz on key 69).
#include <cmath>
#include <fstream>

#include "RenderSupport.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace oscillator_pitch_tests {

using spindle::test::renderSong;
using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr double kRate = 48000.0;

// Upward zero crossings of the left channel over [0.2 s, 0.8 s), as a frequency.
double heldHz(const std::filesystem::path& dir, const std::string& name, const std::string& sfzText, int key) {
  const auto sfz = dir / (name + ".sfz");
  std::ofstream(sfz) << sfzText;
  const auto k = static_cast<uint8_t>(key);
  const auto r = renderSong(kExe, sfz, {{0, {0x90, k, 127}}, {960, {0x80, k, 0}}}, dir, name);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  double first = -1.0, last = -1.0;
  int crossings = 0;
  for (size_t i = static_cast<size_t>(0.2 * kRate); i < static_cast<size_t>(0.8 * kRate); ++i) {
    const float a = r.left[i - 1], b = r.left[i];
    if (a < 0.0f && b >= 0.0f) {
      const double t = static_cast<double>(i - 1) + static_cast<double>(-a / (b - a));
      if (first < 0.0) first = t;
      last = t;
      ++crossings;
    }
  }
  REQUIRE(crossings > 2);
  return (crossings - 1) * kRate / (last - first);
}

double cents(double hz, double reference) { return 1200.0 * std::log2(hz / reference); }

}  // namespace

TEST_CASE("a generator plays its pitch_keycenter's pitch at that key", "[app][generators]") {
  const auto dir = scratchDir("oscillator-pitch");
  const std::string at69 = "<region> sample=*sine pitch_keycenter=69\n";
  CHECK(std::fabs(cents(heldHz(dir, "sine69", at69, 69), 440.0)) < 2.0);
  CHECK(std::fabs(cents(heldHz(dir, "sine72", at69, 72), 440.0 * std::exp2(3.0 / 12.0))) < 2.0);
  CHECK(std::fabs(cents(heldHz(dir, "default", "<region> sample=*sine\n", 69), 440.0)) < 2.0);
  CHECK(std::fabs(cents(heldHz(dir, "tri48", "<region> sample=*triangle pitch_keycenter=48\n", 48), 130.8128)) < 2.0);
  // Keytrack 0: every key plays the keycenter's pitch.
  const std::string fixed = "<region> sample=*sine pitch_keycenter=57 pitch_keytrack=0\n";
  CHECK(std::fabs(cents(heldHz(dir, "fixed", fixed, 80), 220.0)) < 2.0);
}

}  // namespace oscillator_pitch_tests
