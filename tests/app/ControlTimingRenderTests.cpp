// ARIA's timing and stopping opcodes, rendered from SFZ text: stop_lohdccN/stop_hihdccN
// (a controller in a 0..1 range releases the region's voices), delay_beats_random (a
// random number of beats, 0 up to the value, added to the delay) and
// delay_beats_onccN/delay_beats_curveccN (beats added by a controller, through a curve).
// The sample is a constant 0.5 (16-bit, 2 s), so a voice's first frame is exact; the
// song runs at 120 bpm: one beat = 24000 frames.
#include <cmath>
#include <fstream>
#include <set>

#include "RenderSupport.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace control_timing_render_tests {

using spindle::test::Rendered;
using spindle::test::renderSong;
using spindle::test::scratchDir;
using spindle::test::SongEvent;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr size_t kBeat = 24000;  // frames at 48 kHz, 120 bpm

Rendered play(const std::string& name, const std::string& opcodes, const std::vector<SongEvent>& song) {
  const auto dir = scratchDir("control-timing");
  spindle::test::writeWav16(dir / "half.wav", 1, std::vector<int16_t>(96000, 16384), 48000);
  const auto sfz = dir / (name + ".sfz");
  std::ofstream(sfz) << "<region> sample=half.wav loop_mode=loop_continuous " << opcodes << "\n";
  Rendered r = renderSong(kExe, sfz, song, dir, name);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return r;
}

// The first frame at or after `from` whose level is above -80 dB, or -1.
int64_t onset(const std::vector<float>& x, size_t from) {
  for (size_t i = from; i < x.size(); ++i)
    if (std::fabs(x[i]) > 1e-4f) return static_cast<int64_t>(i - from);
  return -1;
}

float peak(const std::vector<float>& x, size_t from, size_t to) {
  float m = 0.0f;
  for (size_t i = from; i < to && i < x.size(); ++i) m = std::max(m, std::fabs(x[i]));
  return m;
}

}  // namespace

TEST_CASE("stop_lohdccN/stop_hihdccN release the region on a controller inside the range", "[app][aria][controllers]") {
  // 0.7 .. 0.9: CC 4 values 89 (0.7008) to 114 (0.8976) stop it; 88 and 115 do not.
  const std::string opcodes = "stop_lohdcc4=0.7 stop_hihdcc4=0.9";
  for (const uint8_t value : {uint8_t{88}, uint8_t{115}}) {
    const Rendered kept = play("stop-out", opcodes, {{0, {0x90, 60, 127}}, {240, {0xB0, 4, value}}, {960, {0x80, 60, 0}}});
    CAPTURE(value);
    CHECK(peak(kept.left, 20000, 47000) > 0.1f);
  }
  for (const uint8_t value : {uint8_t{89}, uint8_t{114}}) {
    const Rendered stopped =
        play("stop-in", opcodes, {{0, {0x90, 60, 127}}, {240, {0xB0, 4, value}}, {960, {0x80, 60, 0}}});
    CAPTURE(value);
    CHECK(peak(stopped.left, 6000, 11000) > 0.1f);    // sounding until the controller moves at 0.25 s
    CHECK(peak(stopped.left, 12000 + 480, 47000) == 0.0f);  // released there (1 ms release)
  }
}

TEST_CASE("delay_beats_random adds a random part of its beats to the delay", "[app][aria][timing]") {
  // Eight notes, one a second, each held 0.9 s: each starts up to one beat (24000
  // frames) late, at a different time; without the opcode each starts on its note-on.
  std::vector<SongEvent> song;
  for (uint32_t k = 0; k < 8; ++k) {
    song.push_back({k * 960, {0x90, 60, 127}});
    song.push_back({k * 960 + 864, {0x80, 60, 0}});
  }
  const Rendered random = play("beats-random", "delay_beats_random=1", song);
  const Rendered plain = play("beats-plain", "", song);
  std::set<int64_t> delays;
  for (size_t k = 0; k < 8; ++k) {
    const int64_t d = onset(random.left, k * 48000);
    CAPTURE(k, d);
    CHECK(d >= 0);
    CHECK(d < static_cast<int64_t>(kBeat));
    CHECK(onset(plain.left, k * 48000) == 0);
    delays.insert(d);
  }
  CHECK(delays.size() == 8);
  CHECK(*delays.rbegin() - *delays.begin() > static_cast<int64_t>(kBeat / 4));
  // A quarter beat at most: every delay below 6000 frames.
  const Rendered quarter = play("beats-quarter", "delay_beats_random=0.25", song);
  for (size_t k = 0; k < 8; ++k) CHECK(onset(quarter.left, k * 48000) < static_cast<int64_t>(kBeat / 4));
}

TEST_CASE("delay_beats_onccN and delay_beats_curveccN add beats by a controller", "[app][aria][timing]") {
  const auto start = [](const std::string& name, const std::string& opcodes, uint8_t cc1) {
    return onset(play(name, opcodes, {{0, {0xB0, 1, cc1}}, {0, {0x90, 60, 127}}, {1900, {0x80, 60, 0}}}).left, 0);
  };
  const std::string linear = "delay_beats=0.5 delay_beats_oncc1=1";
  CHECK(start("beats-cc0", linear, 0) == static_cast<int64_t>(kBeat / 2));
  CHECK(start("beats-cc127", linear, 127) == static_cast<int64_t>(kBeat / 2 + kBeat));
  // Curve 4 (x squared) at CC 1 = 64: (64/127)^2 = 0.254 beats more.
  const double x = 64.0 / 127.0;
  const auto expected = static_cast<int64_t>(std::llround((0.5 + x * x) * static_cast<double>(kBeat)));
  CHECK(std::llabs(start("beats-curve", linear + " delay_beats_curvecc1=4", 64) - expected) <= 1);
  CHECK(std::llabs(start("beats-linear", linear, 64) - std::llround((0.5 + x) * static_cast<double>(kBeat))) <= 1);
}

}  // namespace control_timing_render_tests
