// Controllers moving an oscillator pair while it sounds: oscillator_detune_onccN (cents
// added to the modulator's detune), oscillator_mod_depth_onccN (percent scaling the
// depth, as sfizz plays it: 100 % at the controller's top is oscillator_mod_depth) and
// oscillator_mod_smoothccN (the depth controller's smoothing, ms). Measured on the ring
// arrangement (oscillator_multi=2): *sine at 440 Hz times a sine modulator r times as
// fast is two sines of half the depth at 440 (1 - r) and 440 (1 + r) Hz, so the
// detune moves energy between frequencies and the depth scales the level.
// Amplitudes by correlation over whole cycles, tolerance 1 % (0.1 dB for ratios).
#include <cmath>
#include <fstream>
#include <numbers>

#include "RenderSupport.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace oscillator_control_render_tests {

using spindle::test::Rendered;
using spindle::test::renderSong;
using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr double kRate = 48000.0;

// The amplitude of the left channel's component at hz over frames [begin, end).
double amplitudeAt(const std::vector<float>& x, double hz, size_t begin, size_t end) {
  double re = 0.0, im = 0.0;
  for (size_t i = begin; i < end; ++i) {
    const double w = 2.0 * std::numbers::pi * hz * static_cast<double>(i) / kRate;
    re += static_cast<double>(x[i]) * std::cos(w);
    im += static_cast<double>(x[i]) * std::sin(w);
  }
  return 2.0 * std::hypot(re, im) / static_cast<double>(end - begin);
}

// Key 69 held one second, after CC 1 set to `cc1`; `later` events follow.
Rendered ring(const std::string& name, const std::string& opcodes, uint8_t cc1,
              std::vector<spindle::test::SongEvent> later = {}) {
  const auto dir = scratchDir("oscillator-control");
  const auto sfz = dir / (name + ".sfz");
  std::ofstream(sfz) << "<region> sample=*sine oscillator_multi=2 oscillator_mode=0 " << opcodes << "\n";
  std::vector<spindle::test::SongEvent> song = {{0, {0xB0, 1, cc1}}, {0, {0x90, 69, 127}}};
  song.insert(song.end(), later.begin(), later.end());
  song.push_back({960, {0x80, 69, 0}});
  Rendered r = renderSong(kExe, sfz, song, dir, name);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return r;
}

constexpr size_t kFrom = 9600, kTo = 38400;  // 0.2 .. 0.8 s: whole cycles of 440 Hz and its multiples

}  // namespace

TEST_CASE("oscillator_detune_onccN detunes the modulator by its controller", "[app][generators][oscillator]") {
  const std::string opcodes = "oscillator_detune=0 oscillator_detune_oncc1=1200 oscillator_mod_depth=100";
  // CC 1 at 0: the modulator at 440 Hz, so DC and 880 Hz.
  const Rendered flat = ring("detune-cc0", opcodes, 0);
  const double flat880 = amplitudeAt(flat.left, 880.0, kFrom, kTo);
  CHECK(flat880 > 0.1);
  CHECK(amplitudeAt(flat.left, 440.0, kFrom, kTo) < 0.01 * flat880);
  CHECK(amplitudeAt(flat.left, 1320.0, kFrom, kTo) < 0.01 * flat880);
  // CC 1 at 127: 1200 cents, a modulator at 880 Hz: 440 and 1320 Hz, as loud as 880 was.
  const Rendered octave = ring("detune-cc127", opcodes, 127);
  CHECK(amplitudeAt(octave.left, 440.0, kFrom, kTo) == Approx(flat880).epsilon(0.01));
  CHECK(amplitudeAt(octave.left, 1320.0, kFrom, kTo) == Approx(flat880).epsilon(0.01));
  CHECK(amplitudeAt(octave.left, 880.0, kFrom, kTo) < 0.01 * flat880);
  // Moved while the note sounds: 880 Hz before the move, 440 and 1320 Hz after it.
  const Rendered moved = ring("detune-moved", opcodes, 0, {{480, {0xB0, 1, 127}}});
  CHECK(amplitudeAt(moved.left, 880.0, 4800, 19200) == Approx(flat880).epsilon(0.01));
  CHECK(amplitudeAt(moved.left, 440.0, 28800, 43200) == Approx(flat880).epsilon(0.01));
  CHECK(amplitudeAt(moved.left, 880.0, 28800, 43200) < 0.01 * flat880);
}

TEST_CASE("oscillator_mod_depth_onccN scales the depth by its controller", "[app][generators][oscillator]") {
  const std::string opcodes = "oscillator_detune=1200 oscillator_mod_depth=100 oscillator_mod_depth_oncc1=100";
  const double full = amplitudeAt(ring("depth-cc127", opcodes, 127).left, 440.0, kFrom, kTo);
  CHECK(full > 0.1);
  CHECK(amplitudeAt(ring("depth-cc0", opcodes, 0).left, 440.0, kFrom, kTo) < 1e-4);
  // CC 1 at 32: 32/127 of the depth, -11.97 dB.
  const double quarter = amplitudeAt(ring("depth-cc32", opcodes, 32).left, 440.0, kFrom, kTo);
  CHECK(20.0 * std::log10(quarter / full) == Approx(20.0 * std::log10(32.0 / 127.0)).margin(0.1));
  // It scales oscillator_mod_depth: 50 % of a depth of 50 is a quarter of the full level.
  const std::string half = "oscillator_detune=1200 oscillator_mod_depth=50 oscillator_mod_depth_oncc1=50";
  CHECK(amplitudeAt(ring("depth-product", half, 127).left, 440.0, kFrom, kTo) == Approx(0.25 * full).epsilon(0.01));
  // Two controllers multiply: 50 % of 50 % of a depth of 100.
  const std::string two = "oscillator_detune=1200 oscillator_mod_depth=100 oscillator_mod_depth_oncc1=50 "
                          "oscillator_mod_depth_oncc2=50";
  CHECK(amplitudeAt(ring("depth-two", two, 127, {{0, {0xB0, 2, 127}}}).left, 440.0, kFrom, kTo) ==
        Approx(0.25 * full).epsilon(0.01));
  // Without a controller the depth plays as written.
  const std::string plain = "oscillator_detune=1200 oscillator_mod_depth=100";
  CHECK(amplitudeAt(ring("depth-plain", plain, 0).left, 440.0, kFrom, kTo) == Approx(full).epsilon(0.01));
}

TEST_CASE("oscillator_mod_smoothccN glides the depth to a controller move", "[app][generators][oscillator]") {
  const std::string base = "oscillator_detune=1200 oscillator_mod_depth=100 oscillator_mod_depth_oncc1=100";
  const double full = amplitudeAt(ring("smooth-full", base, 127).left, 440.0, kFrom, kTo);
  // CC 1 from 0 to 127 at 0.5 s (frame 24000): with 200 ms of smoothing the depth is a
  // quarter of the way up 50 ms later, three quarters at 150 ms, all of it after 200 ms.
  const std::vector<spindle::test::SongEvent> move = {{480, {0xB0, 1, 127}}};
  const Rendered smooth = ring("smooth-200", base + " oscillator_mod_smoothcc1=200", 0, move);
  const auto around = [&](size_t frame) { return amplitudeAt(smooth.left, 440.0, frame - 600, frame + 600); };  // 11 cycles
  CHECK(around(24000 + 2400) / full == Approx(0.25).margin(0.02));
  CHECK(around(24000 + 7200) / full == Approx(0.75).margin(0.02));
  CHECK(around(24000 + 12000) / full == Approx(1.0).margin(0.01));
  // Without it the depth arrives within the default 5 ms.
  const Rendered quick = ring("smooth-default", base, 0, move);
  CHECK(amplitudeAt(quick.left, 440.0, 24000 + 1200, 24000 + 2400) / full == Approx(1.0).margin(0.01));
}

}  // namespace oscillator_control_render_tests
