// spindle-render --scale/--keymap: the pitch every tested key sounds, measured on a
// *sine region by its zero crossings over 0.6 s (hundreds of periods), and the keys a
// keyboard map leaves unmapped staying silent.
#include <cmath>
#include <fstream>
#include <iomanip>

#include "RenderSupport.h"
#include "catch.h"
#include "stream/TestAudioFiles.h"

namespace tuning_render_tests {

using spindle::test::scratchDir;

namespace {

const std::string kExe = SPINDLE_RENDER_EXE;
constexpr double kRate = 48000.0;

// Each key held for 0.9 s, one a second, rendered with the extra arguments.
spindle::test::Rendered renderKeys(const std::filesystem::path& dir, const std::string& name,
                                   const std::vector<int>& keys, const std::vector<std::string>& extra) {
  const auto sfz = dir / "sine.sfz";
  std::ofstream(sfz) << "<region> sample=*sine pitch_keycenter=60 ampeg_release=0.01\n";
  std::vector<spindle::test::SongEvent> events;
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto k = static_cast<uint8_t>(keys[i]);
    events.push_back({static_cast<uint32_t>(960 * i), {0x90, k, 127}});
    events.push_back({static_cast<uint32_t>(960 * i + 864), {0x80, k, 0}});
  }
  const auto midi = dir / (name + ".mid");
  const auto wav = dir / (name + ".wav");
  spindle::test::saveBytes(midi, spindle::test::buildSong(events));
  std::vector<std::string> args{kExe, "--sfz", sfz.string(), "--midi", midi.string(), "--wav", wav.string()};
  for (const std::string& e : extra) args.push_back(e);
  const auto run = spindle::test::runProcess(args, dir);
  spindle::test::Rendered out{run.exitCode, run.out, run.err, {}, {}};
  if (run.exitCode != 0) return out;
  spindle::stream::SamplePool pool;
  const spindle::SampleData* data = pool.acquire(wav.string());
  REQUIRE(data);
  out.left.resize(static_cast<size_t>(data->totalFrames));
  data->readFrames(0, 0, data->totalFrames, out.left.data());
  return out;
}

// Upward zero crossings of the left channel over [begin, end) seconds, as Hz; 0 when
// fewer than three.
double hzBetween(const std::vector<float>& left, double begin, double end) {
  double first = -1.0, last = -1.0;
  int crossings = 0;
  for (auto i = static_cast<size_t>(begin * kRate); i < static_cast<size_t>(end * kRate); ++i) {
    const float a = left[i - 1], b = left[i];
    if (a < 0.0f && b >= 0.0f) {
      const double t = static_cast<double>(i - 1) + static_cast<double>(-a / (b - a));
      if (first < 0.0) first = t;
      last = t;
      ++crossings;
    }
  }
  return crossings > 2 ? (crossings - 1) * kRate / (last - first) : 0.0;
}

// A note held from `from` seconds, over its steady part.
double heldHz(const std::vector<float>& left, double from) { return hzBetween(left, from + 0.2, from + 0.8); }

double cents(double hz, double reference) { return 1200.0 * std::log2(hz / reference); }

std::string nineteenTone(const std::filesystem::path& dir) {
  const auto scl = dir / "19tet.scl";
  std::ofstream out(scl);
  out << "! 19tet.scl\n19-tone equal temperament\n 19\n!\n" << std::fixed << std::setprecision(6);
  for (int i = 1; i < 19; ++i) out << " " << 1200.0 * i / 19.0 << " cents\n";
  out << " 2/1\n";
  return scl.string();
}

}  // namespace

TEST_CASE("a 19-tone Scala scale plays each key's frequency within half a cent", "[app][tuning]") {
  const auto dir = scratchDir("tuning-19");
  const std::vector<int> keys{41, 55, 60, 61, 64, 69, 72, 79, 84};
  const auto r = renderKeys(dir, "nineteen", keys, {"--scale", nineteenTone(dir)});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    const double expected = 261.6255653 * std::exp2((keys[i] - 60) / 19.0);
    INFO("key " << keys[i] << " expected " << expected << " Hz");
    CHECK(std::fabs(cents(heldHz(r.left, static_cast<double>(i)), expected)) < 0.5);
  }
}

TEST_CASE("a keyboard map sets the reference frequency and silences unmapped keys", "[app][tuning]") {
  const auto dir = scratchDir("tuning-kbm");
  const auto kbm = dir / "pattern.kbm";
  std::ofstream(kbm) << "! pattern.kbm\n12\n48\n84\n60\n69\n432.0\n19\n0\nx\n3\nx\n6\n8\nx\n11\nx\n14\nx\n17\n";
  const std::vector<int> keys{69, 60, 64, 72, 59, 61, 47, 85, 66};
  const auto r = renderKeys(dir, "pattern", keys, {"--scale", nineteenTone(dir), "--keymap", kbm.string()});
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const auto expected = [](int degree, int octaves) { return 432.0 * std::exp2((degree - 14 + 19 * octaves) / 19.0); };
  CHECK(std::fabs(cents(heldHz(r.left, 0.0), 432.0)) < 0.5);
  CHECK(std::fabs(cents(heldHz(r.left, 1.0), expected(0, 0))) < 0.5);
  CHECK(std::fabs(cents(heldHz(r.left, 2.0), expected(6, 0))) < 0.5);
  CHECK(std::fabs(cents(heldHz(r.left, 3.0), expected(0, 1))) < 0.5);
  CHECK(std::fabs(cents(heldHz(r.left, 4.0), expected(17, -1))) < 0.5);
  // 61 and 66 are 'x', 47 and 85 outside 48..84: no voice, silence.
  for (size_t i = 5; i < keys.size(); ++i) {
    INFO("key " << keys[i]);
    const auto from = static_cast<size_t>(static_cast<double>(i) * kRate);
    CHECK(spindle::test::energy(r.left, from, from + static_cast<size_t>(kRate)) == 0.0);
  }
}

TEST_CASE("spindle-render refuses a bad scale naming the file and line", "[app][tuning]") {
  const auto dir = scratchDir("tuning-bad");
  const auto scl = dir / "bad.scl";
  std::ofstream(scl) << "! bad\nBad\n2\n100.0\nthree halves\n";
  const auto r = renderKeys(dir, "bad", {60}, {"--scale", scl.string()});
  CHECK(r.exitCode != 0);
  CHECK(r.err.find(scl.string() + ":5: 'three' is neither cents nor a ratio") != std::string::npos);
}

TEST_CASE("MTS sysex in a MIDI file retunes the sounding note from its time", "[app][tuning]") {
  const auto dir = scratchDir("tuning-mts");
  const auto sfz = dir / "sine.sfz";
  std::ofstream(sfz) << "<region> sample=*sine pitch_keycenter=60\n";
  spindle::test::TrackBuilder track;
  track.event(0, {0x90, 69, 127});
  // At 0.5 s: key 69 -> semitone 69 + 0x40 0x00 (50 cents up), real-time single note.
  track.event(480, {0xF0, 0x0B, 0x7F, 0x7F, 0x08, 0x02, 0x00, 0x01, 69, 69, 0x40, 0x00, 0xF7});
  track.event(480, {0x80, 69, 0});
  track.end();
  const auto midi = dir / "mts.mid";
  const auto wav = dir / "mts.wav";
  spindle::test::saveBytes(midi, spindle::test::buildSmf(0, 480, {track}));
  const auto run = spindle::test::runProcess(
      {kExe, "--sfz", sfz.string(), "--midi", midi.string(), "--wav", wav.string()}, dir);
  INFO(run.err);
  REQUIRE(run.exitCode == 0);
  spindle::stream::SamplePool pool;
  const spindle::SampleData* data = pool.acquire(wav.string());
  REQUIRE(data);
  std::vector<float> left(static_cast<size_t>(data->totalFrames));
  data->readFrames(0, 0, data->totalFrames, left.data());
  CHECK(std::fabs(cents(hzBetween(left, 0.05, 0.495), 440.0)) < 0.5);
  CHECK(std::fabs(cents(hzBetween(left, 0.505, 0.95), 440.0 * std::exp2(50.0 / 1200.0))) < 0.5);
}

}  // namespace tuning_render_tests
